import { ApplicationState, changedServices } from './applicationState';
import { HealthStatus, worstHealth } from './health';
import { isoSeconds, podSuffix, uidFor } from './identifiers';
import {
  argoHealthOfRollout,
  rolloutManifest,
  viewRollout,
} from './rolloutView';
import { RolloutState } from './rolloutState';
import { World } from './world';

export interface ResourceRef {
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

/** One object in the simulated cluster, with what Argo CD's resource tree says about it. */
export interface LiveObject extends ResourceRef {
  resourceVersion: string;
  manifest: Record<string, unknown>;
  health?: HealthStatus;
  parentRefs?: ResourceRef[];
  images?: string[];
  info?: Array<{ name: string; value: string }>;
  createdAt: string;
}

/** An entry of Application status.resources (the managed, top-level objects). */
export interface ManagedResourceStatus {
  group?: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  status: 'Synced' | 'OutOfSync';
  health: HealthStatus;
}

/**
 * Every live object of an Application: per service a Rollout, its ReplicaSets and Pods, and a
 * Service. `rollouts` narrows it to some services' objects.
 */
export function liveObjects(
  app: ApplicationState,
  world: World,
  rollouts: Iterable<RolloutState> = app.rollouts.values(),
): LiveObject[] {
  const objects: LiveObject[] = [];
  for (const rollout of rollouts) {
    // The Rollout's children and Service change with it.
    const resourceVersion = world.resourceVersionOf(rollout);
    const view = viewRollout(rollout, world.plan);
    const ns = rollout.namespace;
    const createdAt = isoSeconds(rollout.createdAt);
    const rolloutRef = ref(
      'argoproj.io',
      'v1alpha1',
      'Rollout',
      ns,
      rollout.name,
    );
    objects.push({
      ...rolloutRef,
      resourceVersion,
      manifest: rolloutManifest(rollout, world.plan, world.steps, {
        uid: rolloutRef.uid,
        resourceVersion,
        appName: app.name,
      }),
      health: argoHealthOfRollout(view),
      info: [{ name: 'Revision', value: `Rev:${rollout.revision}` }],
      createdAt,
    });
    const replicaSets: Array<{
      hash: string;
      digestImage: string;
      pods: number;
    }> = [
      {
        hash: view.stableHash,
        digestImage: view.runningImages[0],
        pods: view.stablePods,
      },
    ];
    if (view.canaryPods > 0 && view.canaryHash !== view.stableHash) {
      replicaSets.push({
        hash: view.canaryHash,
        digestImage: view.runningImages[1],
        pods: view.canaryPods,
      });
    }
    for (const rs of replicaSets) {
      const rsRef = ref(
        'apps',
        'v1',
        'ReplicaSet',
        ns,
        `${rollout.name}-${rs.hash}`,
      );
      objects.push({
        ...rsRef,
        resourceVersion,
        manifest: replicaSetManifest(
          rsRef,
          rolloutRef,
          rs,
          resourceVersion,
          createdAt,
        ),
        health: { status: 'Healthy' },
        parentRefs: [rolloutRef],
        createdAt,
      });
      for (let i = 0; i < rs.pods; i++) {
        const podRef = ref(
          '',
          'v1',
          'Pod',
          ns,
          `${rsRef.name}-${podSuffix(`${rsRef.name}/${i}`)}`,
        );
        objects.push({
          ...podRef,
          resourceVersion,
          manifest: podManifest(
            podRef,
            rsRef,
            rs,
            resourceVersion,
            createdAt,
            rollout.name,
          ),
          health: { status: 'Healthy' },
          parentRefs: [rsRef],
          images: [rs.digestImage],
          info: [
            { name: 'Status Reason', value: 'Running' },
            { name: 'Containers', value: '1/1' },
          ],
          createdAt,
        });
      }
    }
    const serviceRef = ref('', 'v1', 'Service', ns, rollout.name);
    objects.push({
      ...serviceRef,
      resourceVersion,
      manifest: serviceManifest(
        serviceRef,
        resourceVersion,
        createdAt,
        rollout.name,
      ),
      health: { status: 'Healthy' },
      createdAt,
    });
  }
  return objects;
}

/** status.resources: a Rollout and a Service per service; services not yet deployed show as Missing. */
export function managedResources(
  app: ApplicationState,
  world: World,
): ManagedResourceStatus[] {
  const outOfSync = new Set(
    app.syncStatus === 'OutOfSync' ? changedServices(app) : [],
  );
  const resources: ManagedResourceStatus[] = [];
  const services = [
    ...new Set([...app.rollouts.keys(), ...Object.keys(app.targetDigests)]),
  ].sort();
  for (const service of services) {
    const rollout = app.rollouts.get(service);
    const status = outOfSync.has(service) ? 'OutOfSync' : 'Synced';
    const rolloutHealth = rollout
      ? argoHealthOfRollout(viewRollout(rollout, world.plan))
      : { status: 'Missing' };
    resources.push({
      group: 'argoproj.io',
      version: 'v1alpha1',
      kind: 'Rollout',
      namespace: app.namespace,
      name: service,
      status,
      health: rolloutHealth,
    });
    resources.push({
      version: 'v1',
      kind: 'Service',
      namespace: app.namespace,
      name: service,
      status: rollout ? 'Synced' : 'OutOfSync',
      health: rollout ? { status: 'Healthy' } : { status: 'Missing' },
    });
  }
  return resources;
}

/** Application health: the worst resource health, unless a test forced it. */
export function applicationHealth(
  app: ApplicationState,
  world: World,
): HealthStatus {
  if (app.overrides.health)
    return { status: app.overrides.health, message: 'forced by platform-sim' };
  return worstHealth(
    managedResources(app, world).map(resource => resource.health),
  );
}

/** The images actually running (status.summary.images): stable, plus the canary while it runs. */
export function runningImages(app: ApplicationState, world: World): string[] {
  const images = new Set<string>();
  for (const rollout of app.rollouts.values()) {
    for (const image of viewRollout(rollout, world.plan).runningImages)
      images.add(image);
  }
  return [...images].sort();
}

function ref(
  group: string,
  version: string,
  kind: string,
  namespace: string,
  name: string,
): ResourceRef {
  return {
    group,
    version,
    kind,
    namespace,
    name,
    uid: uidFor(kind, namespace, name),
  };
}

function baseMeta(
  r: ResourceRef,
  resourceVersion: string,
  createdAt: string,
  labels: Record<string, string>,
) {
  return {
    name: r.name,
    namespace: r.namespace,
    uid: r.uid,
    resourceVersion,
    creationTimestamp: createdAt,
    labels,
  };
}

function ownerRef(owner: ResourceRef) {
  return {
    apiVersion: owner.group ? `${owner.group}/${owner.version}` : owner.version,
    kind: owner.kind,
    name: owner.name,
    uid: owner.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

function replicaSetManifest(
  r: ResourceRef,
  owner: ResourceRef,
  rs: { hash: string; digestImage: string; pods: number },
  resourceVersion: string,
  createdAt: string,
) {
  const labels = { app: owner.name, 'rollouts-pod-template-hash': rs.hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      ...baseMeta(r, resourceVersion, createdAt, labels),
      ownerReferences: [ownerRef(owner)],
    },
    spec: {
      replicas: rs.pods,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: owner.name, image: rs.digestImage }] },
      },
    },
    status: {
      replicas: rs.pods,
      readyReplicas: rs.pods,
      availableReplicas: rs.pods,
      fullyLabeledReplicas: rs.pods,
      observedGeneration: 1,
    },
  };
}

function podManifest(
  r: ResourceRef,
  owner: ResourceRef,
  rs: { hash: string; digestImage: string },
  resourceVersion: string,
  createdAt: string,
  app: string,
) {
  const labels = { app, 'rollouts-pod-template-hash': rs.hash };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...baseMeta(r, resourceVersion, createdAt, labels),
      ownerReferences: [ownerRef(owner)],
    },
    spec: { containers: [{ name: app, image: rs.digestImage }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        {
          name: app,
          image: rs.digestImage,
          imageID: rs.digestImage,
          ready: true,
          restartCount: 0,
          started: true,
          state: { running: { startedAt: createdAt } },
        },
      ],
    },
  };
}

function serviceManifest(
  r: ResourceRef,
  resourceVersion: string,
  createdAt: string,
  app: string,
) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: baseMeta(r, resourceVersion, createdAt, { app }),
    spec: serviceSpec(app),
    status: { loadBalancer: {} },
  };
}

/** A service's Service spec: ClusterIP in front of its pods' http port. */
export function serviceSpec(app: string): Record<string, unknown> {
  return {
    type: 'ClusterIP',
    selector: { app },
    ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
  };
}
