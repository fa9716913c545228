import { loadFixture } from '../../__testUtils__/fixtures';
import { events, evidence, POD, runningPod } from '../__testUtils__/hopEvidence';
import type { KubePod } from './hopEvidence';
import { imagePullHop } from './imagePullHop';
import { pullFailureCause } from './pullEvidence';

const backOffPod = loadFixture<KubePod>('pod-storefront-imagepullbackoff.yaml');
const unauthorized = events('events-image-pull-unauthorized.yaml');
const manifestUnknown = events('events-image-pull-manifest-unknown.yaml');

describe('pullFailureCause', () => {
  it.each([
    [manifestUnknown[1].message!, 'missing'],
    ['Failed to pull image "x@sha256:1": manifest unknown: manifest unknown', 'missing'],
    [unauthorized[0].message!, 'unauthorized'],
    ['Failed to pull image "x": pull access denied, repository does not exist or may require authorization', 'unauthorized'],
    ['Failed to pull image "x": dial tcp: i/o timeout', 'other'],
  ])('%s: %s', (message, cause) => {
    expect(pullFailureCause(message)).toBe(cause);
  });
});

describe('imagePullHop', () => {
  it.each([
    ['the registry refuses the node', { events: unauthorized }, 'stalled'],
    ['the digest is not there (shown here too; the registry hop comes first)', { events: manifestUnknown }, 'stalled'],
    ['only the container waits in ImagePullBackOff', { pods: [backOffPod] }, 'stalled'],
    ['old pull failures, the container runs now', { events: unauthorized, pods: [runningPod(false)] }, 'completed'],
    ['a failure about another image', { events: unauthorized, digest: `sha256:${'c'.repeat(64)}` }, 'unknown'],
    ['nothing read', {}, 'unknown'],
  ])('%s: %s', (_case, overrides, mark) => {
    expect(imagePullHop(evidence(overrides)).mark).toBe(mark);
  });

  it('says the credentials are refused, in the kubelet\'s words', () => {
    const reading = imagePullHop(evidence({ events: unauthorized, pods: [backOffPod] }));
    expect(reading).toMatchObject({
      hop: 'image-pull',
      seenAt: '2025-06-01T11:56:49.000Z',
      lookAt: { kind: 'kubectl', text: `kubectl -n alpha-shop-test describe pod ${POD}` },
    });
    expect(reading.evidence).toMatch(
      new RegExp(`^Pod ${POD} cannot pull its image: the registry refuses the node: the pull credentials .* — Failed to pull image .*401 Unauthorized \\(seen 5 times\\)$`),
    );
  });

  it('without events, says what the container waits on', () => {
    expect(imagePullHop(evidence({ pods: [backOffPod] })).evidence).toMatch(
      /cannot pull its image: the image cannot be pulled — Back-off pulling image "registry\.refplat\.org/,
    );
  });
});
