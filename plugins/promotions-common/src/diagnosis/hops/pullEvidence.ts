import type { HopEvidence, KubeEvent } from './hopEvidence';
import { eventSeenAt, workloadEvents, workloadPods } from './workloadObjects';

/**
 * What the kubelet said about pulling the released image: shared by the registry hop (a digest
 * the registry does not have) and the image-pull hop (a registry that refuses the node).
 */

/** Why a pull fails: the digest is not there, the node may not read it, or something else. */
export type PullFailureCause = 'missing' | 'unauthorized' | 'other';

export interface PullFailure {
  pod: string;
  cause: PullFailureCause;
  /** The kubelet's words, the registry's answer when an event has it. */
  message: string;
  seenAt?: string;
  count?: number;
}

const PULL_WAITING_REASONS = ['ImagePullBackOff', 'ErrImagePull'];

/** containerd's and Docker's words for a manifest the registry does not have. */
const MISSING = /manifest unknown|: not found|NotFound|not found:|name unknown/i;
const UNAUTHORIZED = /401|403|unauthorized|authentication required|no basic auth credentials|pull access denied|forbidden/i;

export function pullFailureCause(message: string): PullFailureCause {
  if (UNAUTHORIZED.test(message)) return 'unauthorized';
  if (MISSING.test(message)) return 'missing';
  return 'other';
}

/** An event about another image than the released digest is not about this rollout. */
function aboutDigest(event: KubeEvent, digest: string | undefined): boolean {
  const image = /image "([^"]+)"/.exec(event.message ?? '')?.[1];
  return !digest || !image || image.includes(digest);
}

/**
 * The pulls failing now, the most telling first: the kubelet's "Failed to pull image" (it
 * quotes the registry), then "Back-off pulling image", then the containers' waiting state.
 * Where the pods are known, only pods still waiting on the pull count: older events are history.
 */
export function pullFailures(evidence: HopEvidence): PullFailure[] {
  const pods = workloadPods(evidence);
  const waiting = (pods ?? []).flatMap(pod =>
    (pod.status?.containerStatuses ?? [])
      .filter(c => PULL_WAITING_REASONS.includes(c.state?.waiting?.reason ?? ''))
      .map(c => ({
        pod: pod.metadata.name,
        message: c.state?.waiting?.message ?? c.state?.waiting?.reason ?? '',
      })),
  );
  if (pods && waiting.length === 0) return [];
  const stillWaiting = (event: KubeEvent) =>
    !pods || waiting.some(w => w.pod === event.involvedObject.name);
  const pullEvents = [
    ...workloadEvents(evidence, 'Pod', 'Failed').filter(e =>
      /^Failed to pull image/.test(e.message ?? ''),
    ),
    ...workloadEvents(evidence, 'Pod', 'BackOff').filter(e =>
      /^Back-off pulling image/.test(e.message ?? ''),
    ),
  ].filter(e => stillWaiting(e) && aboutDigest(e, evidence.digest));
  return [
    ...pullEvents.map(e => ({
      pod: e.involvedObject.name ?? evidence.workload,
      cause: pullFailureCause(e.message ?? ''),
      message: e.message ?? '',
      seenAt: eventSeenAt(e),
      count: e.count,
    })),
    ...waiting.map(w => ({ ...w, cause: pullFailureCause(w.message) })),
  ];
}

/** A container of the workload started, or the kubelet reported the image pulled. */
export function imagePulled(evidence: HopEvidence): boolean {
  const started = (workloadPods(evidence) ?? []).some(pod =>
    (pod.status?.containerStatuses ?? []).some(
      c =>
        (c.state?.running || c.state?.terminated) &&
        (!evidence.digest || (c.imageID ?? c.image ?? '').includes(evidence.digest)),
    ),
  );
  return (
    started ||
    workloadEvents(evidence, 'Pod', 'Pulled').some(e => aboutDigest(e, evidence.digest))
  );
}
