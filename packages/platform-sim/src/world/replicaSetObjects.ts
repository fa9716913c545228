import { podSuffix } from './identifiers';
import { baseMeta, LiveObject, ownerRef, ref, ResourceRef } from './liveObject';
import { READINESS_PROBE } from './rolloutView';
import { kubeEvent } from './stalls/kubeEvent';
import { refusedPods, signaturePolicyReport } from './stalls/refusedPods';
import { StalledCanary } from './stalls/stalledCanary';
import { stalledPod } from './stalls/stalledPods';

/** One ReplicaSet of a Rollout: its pod-template hash, image and wanted pods. */
export interface ReplicaSetPlan {
  hash: string;
  digestImage: string;
  pods: number;
}

interface Owned {
  rollout: ResourceRef;
  resourceVersion: string;
  createdAt: string;
}

/**
 * A ReplicaSet of a Rollout with its pods, their events, and Kyverno's report
 * on it. `stalled` (the canary's stall) makes the pods what a real cluster
 * makes of them: refused at admission or by a quota (no pods), Pending,
 * running but not ready, or crash-looping.
 */
export function replicaSetObjects(
  rs: ReplicaSetPlan,
  owned: Owned,
  stalled?: StalledCanary,
): LiveObject[] {
  const { rollout, resourceVersion, createdAt } = owned;
  const rsRef = ref('apps', 'v1', 'ReplicaSet', rollout.namespace, `${rollout.name}-${rs.hash}`);
  const podName = (index: number) => `${rsRef.name}-${podSuffix(`${rsRef.name}/${index}`)}`;
  const refused = refusedPods(stalled, podName(0));
  const pods = refused ? 0 : rs.pods;
  const readyPods = stalled ? 0 : pods;
  const objects: LiveObject[] = [
    {
      ...rsRef,
      resourceVersion,
      manifest: replicaSetManifest(rsRef, rollout, rs, { created: pods, ready: readyPods, failure: refused?.condition }, resourceVersion, createdAt),
      health: replicaSetHealth(rs.pods, readyPods, refused?.condition),
      parentRefs: [rollout],
      createdAt,
      ...(refused ? { events: [kubeEvent(rsRef, refused.report, resourceVersion)] } : {}),
    },
  ];
  if (stalled?.stall === 'deniedByAdmission')
    objects.push(signaturePolicyReport(stalled, rsRef, resourceVersion));
  for (let i = 0; i < pods; i++) {
    const podRef = ref('', 'v1', 'Pod', rollout.namespace, podName(i));
    const stalledState = stalledPod(stalled, podRef);
    objects.push({
      ...podRef,
      resourceVersion,
      manifest: podManifest(podRef, rsRef, rs, resourceVersion, createdAt, rollout.name, stalledState?.status),
      health: stalledState?.health ?? { status: 'Healthy' },
      parentRefs: [rsRef],
      images: [rs.digestImage],
      info: stalledState?.info ?? [
        { name: 'Status Reason', value: 'Running' },
        { name: 'Containers', value: '1/1' },
      ],
      createdAt,
      ...(stalledState ? { events: stalledState.reports.map(report => kubeEvent(podRef, report, resourceVersion)) } : {}),
    });
  }
  return objects;
}

/** Argo CD's ReplicaSet health: Degraded by a ReplicaFailure, Progressing while replicas are unavailable. */
function replicaSetHealth(wanted: number, available: number, failure?: Record<string, unknown>) {
  if (failure) return { status: 'Degraded', message: String(failure.message) };
  if (available < wanted)
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${available} out of ${wanted} new replicas are available...`,
    };
  return { status: 'Healthy' };
}

function podSpec(container: string, image: string) {
  return {
    containers: [
      {
        name: container,
        image,
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        readinessProbe: READINESS_PROBE,
      },
    ],
  };
}

function replicaSetManifest(
  r: ResourceRef,
  owner: ResourceRef,
  rs: ReplicaSetPlan,
  pods: { created: number; ready: number; failure?: Record<string, unknown> },
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
        spec: podSpec(owner.name, rs.digestImage),
      },
    },
    status: {
      replicas: pods.created,
      readyReplicas: pods.ready,
      availableReplicas: pods.ready,
      fullyLabeledReplicas: pods.created,
      observedGeneration: 1,
      ...(pods.failure ? { conditions: [pods.failure] } : {}),
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
  stalledStatus?: Record<string, unknown>,
) {
  const labels = { app, 'rollouts-pod-template-hash': rs.hash };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...baseMeta(r, resourceVersion, createdAt, labels),
      ownerReferences: [ownerRef(owner)],
    },
    spec: podSpec(app, rs.digestImage),
    status: stalledStatus ?? {
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
