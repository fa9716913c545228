import { LiveForRequest, RequestStep, requestStep } from './requestStep';

const NOW = new Date('2026-12-01T10:00:00Z');
const LEASE_RUNNING = '2026-12-01T10:00:20.000Z';
const LEASE_ENDED = '2026-12-01T09:59:59.000Z';

const live = (facts: Partial<LiveForRequest>): LiveForRequest => ({
  fingerprint: 'same',
  pullRequest: { number: 0 },
  baseBlobSha: 'base-1',
  ...facts,
});
const opened = live({ pullRequest: { number: 7 } });
const opening = live({ leaseExpiresAt: LEASE_RUNNING });
const abandoned = live({ leaseExpiresAt: LEASE_ENDED });
const queued = live({ queuedAt: '2026-12-01T09:00:00.000Z' });

const person = { fingerprint: 'same', baseBlobSha: 'base-1', queue: false, supersede: true };
const bulk = { ...person, queue: true };

describe('requestStep', () => {
  it.each<[string, LiveForRequest | undefined, typeof person, boolean, RequestStep]>([
    ['nothing live', undefined, person, false, { step: 'insert', supersedes: false }],
    ['the identical promotion with its PR', opened, person, false, { step: 'answer-existing' }],
    ['the identical promotion queued, asked by bulk work', queued, bulk, false, { step: 'answer-existing' }],
    ['the identical promotion queued, asked by a person', queued, person, false, { step: 'take-from-queue' }],
    [
      'the identical promotion queued on another Release, asked by a person',
      queued,
      { ...person, baseBlobSha: 'base-2' },
      false,
      { step: 'insert', supersedes: true },
    ],
    ['the identical promotion being opened', opening, person, false, { step: 'wait', ms: 200 }],
    ['the identical promotion being opened, waited enough', opening, person, true, { step: 'refuse-still-opening', leaseEndsInMs: 20_000 }],
    ['the identical promotion, its opener stopped', abandoned, person, false, { step: 'finish-abandoned' }],
    ['the identical promotion, its opener stopped, waited enough', abandoned, person, true, { step: 'refuse-still-opening', leaseEndsInMs: 0 }],
    ['a different promotion, superseding', live({ fingerprint: 'other', pullRequest: { number: 3 } }), person, false, { step: 'insert', supersedes: true }],
    [
      'a different promotion, not superseding',
      live({ fingerprint: 'other', pullRequest: { number: 3 } }),
      { ...person, supersede: false },
      false,
      { step: 'refuse-different' },
    ],
  ])('%s: %j', (_case, current, request, waitedEnough, expected) => {
    expect(requestStep(current, request, NOW, waitedEnough)).toEqual(expected);
  });

  it('waits no longer than the lease still runs', () => {
    expect(requestStep(live({ leaseExpiresAt: '2026-12-01T10:00:00.050Z' }), person, NOW, false)).toEqual({ step: 'wait', ms: 50 });
  });
});
