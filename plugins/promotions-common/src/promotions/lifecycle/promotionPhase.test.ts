import { livePhase, promotionPhase } from './promotionPhase';

describe('promotionPhase', () => {
  const pr = { number: 7, url: 'https://github.example/pull/7' };
  const none = { number: 0, url: '' };
  it.each([
    ['open', none, undefined, 'opening'],
    ['awaiting-approval', none, undefined, 'opening'],
    ['open', none, '2026-01-01T00:00:00Z', 'queued'],
    ['awaiting-approval', none, '2026-01-01T00:00:00Z', 'queued'],
    ['open', pr, undefined, 'pull-request-open'],
    ['approved', pr, undefined, 'pull-request-open'],
    ['merged', pr, undefined, 'ended'],
    ['closed', none, '2026-01-01T00:00:00Z', 'ended'],
    ['failed', none, undefined, 'ended'],
  ] as const)('%s, PR %p, queued at %p → %s', (status, pullRequest, queuedAt, phase) => {
    expect(promotionPhase({ status, pullRequest, queuedAt })).toBe(phase);
  });
});

describe('livePhase', () => {
  it.each([
    [0, undefined, 'opening'],
    [0, '2026-01-01T00:00:00Z', 'queued'],
    [7, undefined, 'pull-request-open'],
  ] as const)('PR number %p, queued at %p → %s', (number, queuedAt, phase) => {
    expect(livePhase({ pullRequest: { number }, queuedAt })).toBe(phase);
  });
});
