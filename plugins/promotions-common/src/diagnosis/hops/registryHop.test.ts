import { loadFixture } from '../../__testUtils__/fixtures';
import { events, evidence, runningPod } from '../__testUtils__/hopEvidence';
import type { KubePod } from './hopEvidence';
import { registryHop } from './registryHop';

const backOffPod = loadFixture<KubePod>('pod-storefront-imagepullbackoff.yaml');

describe('registryHop', () => {
  it.each([
    ['the kubelet hears "not found"', { events: events('events-image-pull-manifest-unknown.yaml') }, 'stalled'],
    ['the kubelet hears "not found" and the pod still waits', { events: events('events-image-pull-manifest-unknown.yaml'), pods: [backOffPod] }, 'stalled'],
    ['"not found" is history: the pod runs now', { events: events('events-image-pull-manifest-unknown.yaml'), pods: [runningPod(true)] }, 'completed'],
    ['the registry refuses the node (image pull, not registry)', { events: events('events-image-pull-unauthorized.yaml') }, 'unknown'],
    ['the registry check verified the digest', { provenance: { state: 'verified' as const, reasons: [] } }, 'completed'],
    ['the registry has it, unsigned', { provenance: { state: 'unverified' as const, reasons: ['no signature'] } }, 'completed'],
    ['nothing read', {}, 'unknown'],
  ])('%s: %s', (_case, overrides, mark) => {
    expect(registryHop(evidence(overrides)).mark).toBe(mark);
  });

  it('says the digest is not there, with the registry check and where to look', () => {
    const reading = registryHop(
      evidence({
        events: events('events-image-pull-manifest-unknown.yaml'),
        provenance: { state: 'failed', reasons: ['it has no manifest there'] },
      }),
    );
    expect(reading).toMatchObject({
      hop: 'registry',
      seenAt: '2025-06-01T11:56:49.000Z',
      lookAt: { kind: 'registry' },
    });
    expect(reading.evidence).toBe(
      'The registry has no sha256:aaaaaaaaaaaa: the kubelet\'s pull answered "not found" (registry check: it has no manifest there). Did the CI run\'s push step publish it?',
    );
  });
});
