import { needsHopEvidence } from './needsHopEvidence';

describe('needsHopEvidence', () => {
  it.each([
    ['healthy', 'sha256:a', false],
    ['progressing', 'sha256:a', true],
    ['unhealthy', 'sha256:a', true],
    ['unknown', 'sha256:a', false],
    ['unhealthy', undefined, false],
  ] as const)('a %s cell with digest %s: %s', (verdict, digest, needs) => {
    expect(needsHopEvidence({ verdict, digest })).toBe(needs);
  });
});
