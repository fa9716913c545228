import YAML from 'yaml';
import { overlayPath } from '../world/applicationSources';
import { serviceSpec } from '../world/liveObjects';
import { rolloutSpec } from '../world/rolloutView';

/** The tag an app repo ships instead of a version; the ApplicationSet injects the digest over it. */
export const PLACEHOLDER_TAG = 'placeholder';

const KUSTOMIZATION = {
  apiVersion: 'kustomize.config.k8s.io/v1beta1',
  kind: 'Kustomization',
};

export function baseDir(service: string): string {
  return `k8s/base/${service}`;
}

export function overlayFile(stage: string): string {
  return `${overlayPath(stage)}/kustomization.yaml`;
}

/** A service's base: its Rollout (image `<repository>:placeholder`) and Service, as a kustomization. */
export function baseFiles(
  repository: string,
  service: string,
  canarySteps: unknown[],
): Array<{ path: string; content: string }> {
  const dir = baseDir(service);
  const rollout = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name: service, labels: { app: service } },
    spec: rolloutSpec(
      service,
      `${repository}:${PLACEHOLDER_TAG}`,
      canarySteps,
    ),
  };
  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: service, labels: { app: service } },
    spec: serviceSpec(service),
  };
  return [
    {
      path: `${dir}/kustomization.yaml`,
      content: YAML.stringify({
        ...KUSTOMIZATION,
        resources: ['rollout.yaml', 'service.yaml'],
      }),
    },
    { path: `${dir}/rollout.yaml`, content: YAML.stringify(rollout) },
    { path: `${dir}/service.yaml`, content: YAML.stringify(svc) },
  ];
}

/** A stage's overlay: the namespace and the services the stage runs; never a digest. */
export function overlayKustomization(
  namespace: string,
  services: string[],
): string {
  const header =
    '# No versions here: the ApplicationSet injects the Release digests\n' +
    '# (spec.source.kustomize.images) over the :placeholder images.\n';
  return (
    header +
    YAML.stringify({
      ...KUSTOMIZATION,
      namespace,
      resources: [...services].sort().map(service => `../../base/${service}`),
    })
  );
}

/** The services an overlay kustomization includes (its `../../base/<service>` resources). */
export function overlayServices(text: string): string[] {
  const parsed = YAML.parse(text) as { resources?: unknown } | null;
  const resources = Array.isArray(parsed?.resources) ? parsed!.resources : [];
  return resources
    .map(resource => /^\.\.\/\.\.\/base\/([^/]+)$/.exec(String(resource))?.[1])
    .filter((service): service is string => Boolean(service))
    .sort();
}
