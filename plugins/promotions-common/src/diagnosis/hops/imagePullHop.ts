import type { HopEvidence } from './hopEvidence';
import type { HopReading } from './hopTypes';
import { imagePulled, PullFailure, pullFailures } from './pullEvidence';
import { describeCommand, timesSeen } from './workloadObjects';

/** What a pull failure means for a platform engineer, by its cause. */
function meaning(failure: PullFailure): string {
  switch (failure.cause) {
    case 'unauthorized':
      return 'the registry refuses the node: the pull credentials (imagePullSecrets or the node role) are missing or wrong';
    case 'missing':
      return 'the registry does not have the digest';
    default:
      return 'the image cannot be pulled';
  }
}

/**
 * Applied → pods pull the released digest: `Failed` / `BackOff` pulling events and containers
 * waiting in `ImagePullBackOff`. A digest the registry does not have is the registry hop's
 * stall, which comes first; this hop's own stall is a registry that refuses the node.
 */
export function imagePullHop(evidence: HopEvidence): HopReading {
  const hop = 'image-pull' as const;
  const failure = pullFailures(evidence)[0];
  if (failure) {
    return {
      hop,
      mark: 'stalled',
      evidence: `Pod ${failure.pod} cannot pull its image: ${meaning(failure)} — ${failure.message}${timesSeen(failure)}`,
      seenAt: failure.seenAt,
      lookAt: { kind: 'kubectl', text: describeCommand(evidence.namespace, 'Pod', failure.pod) },
    };
  }
  return { hop, mark: imagePulled(evidence) ? 'completed' : 'unknown' };
}
