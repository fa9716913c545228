import { judgeOpening, leaseExpiry } from './opening';

const NOW = new Date('2026-12-01T10:00:00.000Z');

describe('judgeOpening', () => {
  it.each([
    ['a recorded PR, whatever the lease', { pullRequest: { number: 7 }, leaseExpiresAt: '2026-12-01T09:00:00.000Z' }, { state: 'opened' }],
    ['a recorded PR without a lease', { pullRequest: { number: 7 } }, { state: 'opened' }],
    ['no PR yet, lease runs 30 s more', { pullRequest: { number: 0 }, leaseExpiresAt: '2026-12-01T10:00:30.000Z' }, { state: 'opening', remainingMs: 30_000 }],
    ['no PR yet, lease runs 1 ms more', { pullRequest: { number: 0 }, leaseExpiresAt: '2026-12-01T10:00:00.001Z' }, { state: 'opening', remainingMs: 1 }],
    ['no PR, lease ends right now', { pullRequest: { number: 0 }, leaseExpiresAt: '2026-12-01T10:00:00.000Z' }, { state: 'abandoned' }],
    ['no PR, lease ended a minute ago', { pullRequest: { number: 0 }, leaseExpiresAt: '2026-12-01T09:59:00.000Z' }, { state: 'abandoned' }],
    ['no PR and no lease (a record from before leases)', { pullRequest: { number: 0 } }, { state: 'abandoned' }],
    ['no PR, waiting in the write queue', { pullRequest: { number: 0 }, queuedAt: '2026-12-01T09:00:00.000Z' }, { state: 'queued' }],
    ['a recorded PR of a promotion that was queued', { pullRequest: { number: 7 }, queuedAt: '2026-12-01T09:00:00.000Z' }, { state: 'opened' }],
    ['no PR and an unreadable lease', { pullRequest: { number: 0 }, leaseExpiresAt: 'soon' }, { state: 'abandoned' }],
  ])('%s', (_name, facts, expected) => {
    expect(judgeOpening(facts, NOW)).toEqual(expected);
  });
});

describe('leaseExpiry', () => {
  it('is the lease length after now, as an ISO time judgeOpening reads back', () => {
    const expires = leaseExpiry(NOW, 60_000);
    expect(expires).toBe('2026-12-01T10:01:00.000Z');
    expect(judgeOpening({ pullRequest: { number: 0 }, leaseExpiresAt: expires }, NOW)).toEqual({
      state: 'opening',
      remainingMs: 60_000,
    });
  });
});
