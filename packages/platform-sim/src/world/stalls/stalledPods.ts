import { HealthStatus } from '../health';
import { isoSeconds } from '../identifiers';
import { ResourceRef } from '../liveObject';
import { EventReport } from './kubeEvent';
import { CANARY_NODE, StalledCanary } from './stalledCanary';

/** How a canary pod that exists but never becomes ready shows: its status, Argo CD's health of it, the tree's info and its events. */
export interface StalledPod {
  status: Record<string, unknown>;
  health: HealthStatus;
  info: Array<{ name: string; value: string }>;
  reports: EventReport[];
}

const UNSCHEDULABLE =
  '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';

/** The kubelet's crash-loop back-off: 10s, doubling per restart, at most 5m. */
function backOff(restarts: number): string {
  const seconds = Math.min(300, 10 * 2 ** Math.max(0, restarts - 1));
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
}

/** The pod as the kubelet formats it in messages: name_namespace(uid). */
function podLabel(pod: ResourceRef): string {
  return `${pod.name}_${pod.namespace}(${pod.uid})`;
}

function condition(type: string, status: string, since: string, reason?: string, message?: string) {
  return {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: since,
    ...(reason ? { reason, message } : {}),
  };
}

/** The stalled pod a stall makes of a canary pod, or undefined when its pods are refused or run well. */
export function stalledPod(
  canary: StalledCanary | undefined,
  pod: ResourceRef,
): StalledPod | undefined {
  if (!canary) return undefined;
  const since = isoSeconds(canary.since);
  const container = canary.container;
  const repeated = { firstAt: canary.since, lastAt: canary.lastAt, count: canary.repeats };
  const kubelet = { component: 'kubelet', host: CANARY_NODE, fieldPath: `spec.containers{${container}}` };
  const unready = [
    condition('Initialized', 'True', since),
    condition('Ready', 'False', since, 'ContainersNotReady', `containers with unready status: [${container}]`),
    condition('ContainersReady', 'False', since, 'ContainersNotReady', `containers with unready status: [${container}]`),
    condition('PodScheduled', 'True', since),
  ];
  const containerStatus = {
    name: container,
    image: canary.image,
    imageID: canary.image,
    ready: false,
  };
  switch (canary.stall) {
    case 'unschedulable':
      return {
        status: {
          phase: 'Pending',
          conditions: [condition('PodScheduled', 'False', since, 'Unschedulable', UNSCHEDULABLE)],
          qosClass: 'Burstable',
        },
        health: { status: 'Progressing' },
        info: [
          { name: 'Status Reason', value: 'Pending' },
          { name: 'Containers', value: '0/1' },
        ],
        reports: [
          { type: 'Warning', reason: 'FailedScheduling', message: UNSCHEDULABLE, component: 'default-scheduler', ...repeated },
        ],
      };
    case 'probeFailing':
      return {
        status: {
          phase: 'Running',
          hostIP: '10.0.42.17',
          conditions: unready,
          containerStatuses: [
            { ...containerStatus, restartCount: 0, started: true, state: { running: { startedAt: since } } },
          ],
        },
        health: { status: 'Progressing' },
        info: [
          { name: 'Status Reason', value: 'Running' },
          { name: 'Node', value: CANARY_NODE },
          { name: 'Containers', value: '0/1' },
        ],
        reports: [
          {
            type: 'Warning',
            reason: 'Unhealthy',
            message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
            ...kubelet,
            ...repeated,
          },
        ],
      };
    case 'crashLoop': {
      const restarts = canary.repeats;
      const waiting = `back-off ${backOff(restarts)} restarting failed container=${container} pod=${podLabel(pod)}`;
      return {
        status: {
          phase: 'Running',
          hostIP: '10.0.42.17',
          conditions: unready,
          containerStatuses: [
            {
              ...containerStatus,
              restartCount: restarts,
              started: false,
              state: { waiting: { reason: 'CrashLoopBackOff', message: waiting } },
              lastState: {
                terminated: {
                  exitCode: 1,
                  reason: 'Error',
                  startedAt: isoSeconds(canary.lastAt),
                  finishedAt: isoSeconds(canary.lastAt),
                },
              },
            },
          ],
        },
        // Argo CD reads a container waiting in a back-off as Degraded, with the kubelet's message.
        health: { status: 'Degraded', message: waiting },
        info: [
          { name: 'Status Reason', value: 'CrashLoopBackOff' },
          { name: 'Node', value: CANARY_NODE },
          { name: 'Containers', value: '0/1' },
          { name: 'Restart Count', value: String(restarts) },
        ],
        reports: [
          {
            type: 'Warning',
            reason: 'BackOff',
            message: `Back-off restarting failed container ${container} in pod ${podLabel(pod)}`,
            ...kubelet,
            ...repeated,
          },
        ],
      };
    }
    default:
      return undefined;
  }
}
