import { imageDigest, runningImages } from '../../argo/application';
import { runsDigest } from '../argoFacts';
import { shortDigestText } from '../format';
import type { ServiceHealthCheck } from '../serviceHealthTypes';
import { check } from './check';
import type { ServiceFacts } from './serviceFacts';

/**
 * The running images against the released digest. `settled`: nothing else is still moving,
 * so an image that is not the released one will not become it.
 */
export function checkImages(
  facts: ServiceFacts,
  settled: boolean,
): ServiceHealthCheck {
  const { service, released, images, runningDigests } = facts;
  if (!released) {
    return check(
      'image',
      'unknown',
      `${service} is not released to this stage: the Release record names no digest for it`,
    );
  }
  if (images.length === 0) {
    const all = runningImages(facts.app);
    return check(
      'image',
      settled ? 'unhealthy' : 'progressing',
      `${service} is not among the running images${all.length ? ` (${all.join(', ')})` : ' (none reported)'}`,
    );
  }
  if (!runsDigest(runningDigests, released)) {
    const running = runningDigests.length
      ? runningDigests.map(shortDigestText).join(', ')
      : `${images.join(', ')} (no digest)`;
    return check(
      'image',
      settled ? 'unhealthy' : 'progressing',
      `Running ${running} but the Release names ${shortDigestText(released)}`,
    );
  }
  const others = [
    ...runningDigests.filter(d => d !== released).map(shortDigestText),
    ...images.filter(i => imageDigest(i) === undefined),
  ];
  if (others.length === 0) {
    return check(
      'image',
      'healthy',
      `Running the released ${shortDigestText(released)}`,
    );
  }
  if (facts.rolloutDone) {
    return check(
      'image',
      'progressing',
      `The rollout is complete but ${others.join(', ')} still runs beside the released ${shortDigestText(released)}`,
    );
  }
  return check(
    'image',
    'healthy',
    `Running the released ${shortDigestText(released)} beside ${others.join(', ')} while the rollout is in progress`,
  );
}
