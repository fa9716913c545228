import { ApplicationState, changedServices } from './applicationState';
import { HealthStatus, worstHealth } from './health';
import { isoSeconds } from './identifiers';
import { baseMeta, LiveObject, ref, ResourceRef } from './liveObject';
import { ReplicaSetPlan, replicaSetObjects } from './replicaSetObjects';
import {
  argoHealthOfRollout,
  rolloutManifest,
  viewRollout,
} from './rolloutView';
import { RolloutState } from './rolloutState';
import { slowAnalysisRun } from './stalls/analysisRun';
import { httpRoute, httpRouteHealth } from './stalls/httpRoute';
import { stalledCanaryOf } from './stalls/stalledCanary';
import { World } from './world';

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
 * Every live object of an Application: per service a Rollout, its ReplicaSets and Pods (with
 * the events about them, and what a stalled canary adds: Kyverno's PolicyReport, a slow
 * AnalysisRun), a Service and an HTTPRoute. `rollouts` narrows it to some services' objects.
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
    const analysisRun = slowAnalysisRun(
      rollout,
      world.plan,
      rolloutRef,
      view.canaryHash,
      resourceVersion,
    );
    const analysisStatus = analysisRun && {
      name: analysisRun.name,
      status: (analysisRun.manifest.status as { phase: string }).phase,
    };
    objects.push({
      ...rolloutRef,
      resourceVersion,
      manifest: rolloutManifest(rollout, world.plan, world.steps, {
        uid: rolloutRef.uid,
        resourceVersion,
        appName: app.name,
        analysisRun: analysisStatus,
      }),
      health: argoHealthOfRollout(view),
      info: [{ name: 'Revision', value: `Rev:${rollout.revision}` }],
      createdAt,
    });
    const replicaSets: ReplicaSetPlan[] = [
      {
        hash: view.stableHash,
        digestImage: view.runningImages[0],
        pods: view.stablePods,
      },
    ];
    const owned = { rollout: rolloutRef, resourceVersion, createdAt };
    objects.push(...replicaSetObjects(replicaSets[0], owned));
    if (view.canaryPods > 0 && view.canaryHash !== view.stableHash) {
      const canary = {
        hash: view.canaryHash,
        digestImage: view.runningImages[1],
        pods: view.canaryPods,
      };
      objects.push(
        ...replicaSetObjects(canary, owned, stalledCanaryOf(rollout, world.plan)),
      );
    }
    if (analysisRun) objects.push(analysisRun);
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
    objects.push(httpRoute(app, rollout, resourceVersion));
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
    resources.push({
      group: 'gateway.networking.k8s.io',
      version: 'v1',
      kind: 'HTTPRoute',
      namespace: app.namespace,
      name: service,
      status: rollout ? 'Synced' : 'OutOfSync',
      health: rollout ? httpRouteHealth(rollout) : { status: 'Missing' },
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
