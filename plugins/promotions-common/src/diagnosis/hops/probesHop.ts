import type { HopEvidence, KubeContainerStatus, KubeEvent, KubePod } from './hopEvidence';
import type { HopReading } from './hopTypes';
import {
  describeCommand,
  eventContainer,
  eventSeenAt,
  timesSeen,
  workloadEvents,
  workloadPods,
} from './workloadObjects';

const PROBE_FAILED = /^(Readiness|Liveness|Startup) probe failed:\s*([\s\S]*)$/;
const RESTART_BACKOFF = /^Back-off restarting failed container/;

/** The path an HTTP probe asked, where the kubelet's message quotes the URL. */
function probePath(message: string): string | undefined {
  return /Get "https?:\/\/[^/"]+(\/[^"]*)"/.exec(message)?.[1];
}

function lastExit(status: KubeContainerStatus): string {
  const last = status.lastState?.terminated;
  if (!last) return '';
  return `; last exit: ${last.reason ?? 'terminated'}${last.exitCode !== undefined ? ` (exit code ${last.exitCode})` : ''}`;
}

function crashLooping(pods: KubePod[]): { pod: string; status: KubeContainerStatus } | undefined {
  for (const pod of pods) {
    const status = (pod.status?.containerStatuses ?? []).find(
      c => c.state?.waiting?.reason === 'CrashLoopBackOff',
    );
    if (status) return { pod: pod.metadata.name, status };
  }
  return undefined;
}

function probeEvidence(event: KubeEvent): string {
  const [, probe, says] = PROBE_FAILED.exec(event.message ?? '') ?? [];
  const container = eventContainer(event);
  const path = probePath(says ?? '');
  return `${probe} probe of ${container ? `container ${container} in ` : ''}pod ${event.involvedObject.name} fails${path ? ` on ${path}` : ''}: ${(says ?? '').trim()}${timesSeen(event)}`;
}

/**
 * Apply canary → scale-up (seed 000: "probes are failing"): containers in `CrashLoopBackOff`,
 * the kubelet's `BackOff` restarts and `Unhealthy` probe events. Completed when every container
 * of the workload's pods is ready; events of pods that are ready now are history.
 */
export function probesHop(evidence: HopEvidence): HopReading {
  const hop = 'probes' as const;
  const { namespace } = evidence;
  const pods = workloadPods(evidence);
  const ready = (pod: KubePod) =>
    (pod.status?.containerStatuses?.length ?? 0) > 0 &&
    pod.status!.containerStatuses!.every(c => c.ready);
  const crash = crashLooping(pods ?? []);
  if (crash) {
    const { pod, status } = crash;
    return {
      hop,
      mark: 'stalled',
      evidence: `Container ${status.name} in pod ${pod} is in CrashLoopBackOff after ${status.restartCount ?? 0} restarts${lastExit(status)}: ${status.state?.waiting?.message ?? ''}`.trim(),
      lookAt: { kind: 'kubectl', text: `kubectl -n ${namespace} logs ${pod} -c ${status.name} --previous` },
    };
  }
  const notReadyNow = (event: KubeEvent) => {
    const pod = pods?.find(p => p.metadata.name === event.involvedObject.name);
    return !(pod && ready(pod));
  };
  const restarting = workloadEvents(evidence, 'Pod', 'BackOff').find(
    e => RESTART_BACKOFF.test(e.message ?? '') && notReadyNow(e),
  );
  const unhealthy = workloadEvents(evidence, 'Pod', 'Unhealthy').find(
    e => PROBE_FAILED.test(e.message ?? '') && notReadyNow(e),
  );
  // The probe's own words say why; a restart loop without them still says that it fails.
  const failing = unhealthy ?? restarting;
  if (failing) {
    const pod = failing.involvedObject.name ?? evidence.workload;
    return {
      hop,
      mark: 'stalled',
      evidence:
        failing === unhealthy
          ? `${probeEvidence(failing)}${restarting ? '; the container restarts in a back-off loop' : ''}`
          : `Pod ${pod}: ${failing.message}${timesSeen(failing)}`,
      seenAt: eventSeenAt(failing),
      lookAt: { kind: 'kubectl', text: describeCommand(namespace, 'Pod', pod) },
    };
  }
  if (pods && pods.length > 0 && pods.every(ready)) return { hop, mark: 'completed' };
  return { hop, mark: 'unknown' };
}
