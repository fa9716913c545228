import { DigestAgeQuery, judgeDigestAge } from './digestAge';

const d = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const [A, B, C] = [d(1), d(2), d(3)];

/** A timeline from oldest to newest (as people tell it), stored newest first. */
const timeline = (...digests: string[]) => digests.map(digest => ({ cart: digest })).reverse();

const query = (q: Partial<DigestAgeQuery>): DigestAgeQuery => ({
  service: 'cart',
  candidate: A,
  target: [],
  bottom: [],
  targetStage: 'test',
  bottomStage: 'dev',
  ...q,
});

describe('judgeDigestAge', () => {
  it.each<[string, string, Partial<DigestAgeQuery>]>([
    ['nothing in the target yet', 'newer', { candidate: B, current: undefined }],
    ['the target already runs it', 'newer', { candidate: B, current: B }],
    [
      'an ordinary new build: reached dev after the target’s',
      'newer',
      { candidate: B, current: A, target: timeline(A), bottom: timeline(A, B) },
    ],
    [
      'a rollback below: dev went back to A, test runs the newer B',
      'older',
      { candidate: A, current: B, target: timeline(A, B), bottom: timeline(A, B, A) },
    ],
    [
      'a hold lifted after a rollback below: test never ran A, which reached dev before B',
      'older',
      { candidate: A, current: B, target: timeline(B), bottom: timeline(A, B, A) },
    ],
    [
      'a hand-merged downgrade in test offered to uat, which runs the newer B',
      'older',
      { candidate: A, current: B, target: timeline(A, B), bottom: timeline(A, B), targetStage: 'uat' },
    ],
    [
      'a rollback of the target itself: the digest rolled back from is still newer (its hold keeps it out)',
      'newer',
      { candidate: B, current: A, target: timeline(A, B, A), bottom: timeline(A, B) },
    ],
    [
      'the same digest returning to dev later is as old as its first arrival',
      'older',
      { candidate: A, current: C, target: timeline(C), bottom: timeline(A, C, B, A) },
    ],
    [
      'the candidate is not in dev’s history read (hand-merged below, or older than the read): not called older on that alone',
      'unknown',
      { candidate: A, current: B, target: timeline(B), bottom: timeline(B, C) },
    ],
    [
      'the candidate is not in dev’s history read, and the target ran it before its digest: older',
      'older',
      { candidate: A, current: B, target: timeline(A, B), bottom: timeline(B, C) },
    ],
    [
      'the target’s digest never passed dev (hand-merged there); the candidate did',
      'newer',
      { candidate: B, current: C, target: timeline(C), bottom: timeline(A, B) },
    ],
    [
      'neither in dev’s history read: by first arrival in the target',
      'older',
      { candidate: B, current: C, target: timeline(B, C), bottom: timeline(A) },
    ],
    [
      'neither in either history read',
      'unknown',
      { candidate: B, current: C, target: timeline(C), bottom: timeline(A) },
    ],
  ])('%s: %s', (_, age, q) => {
    expect(judgeDigestAge(query(q)).age).toBe(age);
  });

  it('says why a digest is behind, with the digests people see and where it arrived first', () => {
    expect(
      judgeDigestAge(query({ candidate: A, current: B, target: timeline(B), bottom: timeline(A, B, A) })),
    ).toEqual({
      age: 'older',
      reason: "sha256:111111111111… reached dev before test's sha256:222222222222…",
    });
    expect(
      judgeDigestAge(query({ candidate: B, current: C, target: timeline(B, C), bottom: timeline(A) })),
    ).toEqual({
      age: 'older',
      reason: "sha256:222222222222… reached test before test's sha256:333333333333…",
    });
  });
});
