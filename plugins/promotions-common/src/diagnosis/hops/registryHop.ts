import { shortDigest } from '../../names';
import type { HopEvidence } from './hopEvidence';
import type { HopReading } from './hopTypes';
import { imagePulled, pullFailures } from './pullEvidence';

/**
 * Request rollout → resolve digest (seed 000: "the digest never reached the registry"): stalled
 * when the kubelet is told the digest is not there; completed when the registry check found it
 * (signed or not) or a pod pulled it.
 */
export function registryHop(evidence: HopEvidence): HopReading {
  const hop = 'registry' as const;
  const missing = pullFailures(evidence).find(f => f.cause === 'missing');
  const digest = evidence.digest ? shortDigest(evidence.digest) : 'the released digest';
  if (missing) {
    const checked =
      evidence.provenance?.state === 'failed' && evidence.provenance.reasons.length
        ? ` (registry check: ${evidence.provenance.reasons.join('; ')})`
        : '';
    return {
      hop,
      mark: 'stalled',
      evidence: `The registry has no ${digest}: the kubelet's pull answered "not found"${checked}. Did the CI run's push step publish it?`,
      seenAt: missing.seenAt,
      lookAt: {
        kind: 'registry',
        text: "The CI run's push step, and the team repository in the registry: is the digest there?",
      },
    };
  }
  const state = evidence.provenance?.state;
  // `unverified` still means the registry has the digest; only its signature or provenance is missing.
  if (state === 'verified' || state === 'unverified' || imagePulled(evidence)) {
    return { hop, mark: 'completed' };
  }
  return { hop, mark: 'unknown' };
}
