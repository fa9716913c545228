import type { HopEvidence, KubePod } from './hopEvidence';
import type { HopReading } from './hopTypes';
import {
  belongsTo,
  describeCommand,
  eventSeenAt,
  timesSeen,
  workloadEvents,
  workloadPods,
} from './workloadObjects';

const QUOTA_EXCEEDED = /exceeded quota: ([\w.-]+)/;

/** A pod the kubelet reports containers for was bound to a node. */
function scheduled(pod: KubePod): boolean {
  return (
    (pod.status?.containerStatuses?.length ?? 0) > 0 ||
    pod.status?.phase === 'Running' ||
    pod.status?.phase === 'Succeeded'
  );
}

/** The scheduler's message without its preemption clause, which repeats the count. */
function schedulerSays(message: string): string {
  return message.split(/\s+preemption:/)[0].trim();
}

/**
 * Policy verdict → nothing applied (seed 000: "the cluster cannot schedule the workload"): the
 * namespace's ResourceQuota refuses the pods (`FailedCreate` on the ReplicaSet), or the
 * scheduler finds no node (`FailedScheduling`: capacity, taints, node selectors).
 */
export function schedulingHop(evidence: HopEvidence): HopReading {
  const hop = 'scheduling' as const;
  const { namespace } = evidence;
  const pods = workloadPods(evidence);
  const quota = workloadEvents(evidence, 'ReplicaSet', 'FailedCreate').find(
    e =>
      QUOTA_EXCEEDED.test(e.message ?? '') &&
      !(pods ?? []).some(p => belongsTo(p.metadata.name, e.involvedObject.name ?? '')),
  );
  if (quota) {
    const name = QUOTA_EXCEEDED.exec(quota.message ?? '')![1];
    return {
      hop,
      mark: 'stalled',
      evidence: `ResourceQuota ${name} refuses the pods: ${(quota.message ?? '').replace(/^Error creating: /, '')}${timesSeen(quota)}`,
      seenAt: eventSeenAt(quota),
      lookAt: { kind: 'kubectl', text: describeCommand(namespace, 'ResourceQuota', name) },
    };
  }
  const scheduledEvents = workloadEvents(evidence, 'Pod', 'Scheduled');
  const since = (pod: string | undefined) =>
    scheduledEvents.find(e => e.involvedObject.name === pod);
  // Still unscheduled: the pod is not known bound, by its status or by a later Scheduled event.
  const unscheduled = workloadEvents(evidence, 'Pod', 'FailedScheduling').find(e => {
    const pod = pods?.find(p => p.metadata.name === e.involvedObject.name);
    const later = since(e.involvedObject.name);
    return !(pod && scheduled(pod)) && !(later && (eventSeenAt(later) ?? '') >= (eventSeenAt(e) ?? ''));
  });
  if (unscheduled) {
    const pod = unscheduled.involvedObject.name ?? evidence.workload;
    return {
      hop,
      mark: 'stalled',
      evidence: `Pod ${pod} cannot be scheduled: ${schedulerSays(unscheduled.message ?? '')}${timesSeen(unscheduled)}`,
      seenAt: eventSeenAt(unscheduled),
      lookAt: { kind: 'kubectl', text: describeCommand(namespace, 'Pod', pod) },
    };
  }
  if ((pods ?? []).some(scheduled) || scheduledEvents.length > 0) return { hop, mark: 'completed' };
  return { hop, mark: 'unknown' };
}
