import type { Diagnosis } from '../diagnosis/diagnose';
import type { Ladder } from '../ladder/types';
import type { Promotion } from '../promotions/types';
import { d, ladder, stage } from '../__testUtils__/ladders';
import { overviewRow, stuckItems } from './rules';

const promotion = (toStage: string, status: Promotion['status'], updatedAt = '2026-12-01T10:00:00Z'): Promotion => ({
  id: `${toStage}-${status}`,
  team: 'alpha',
  product: 'shop',
  fromStage: 'dev',
  toStage,
  services: { cart: d('b') },
  status,
  requestedBy: 'user:default/alice',
  pullRequest: { number: 1, url: 'https://github.example/pull/1' },
  createdAt: updatedAt,
  updatedAt,
});

const stuckDiagnosis: Diagnosis = {
  state: 'stuck',
  code: 'canary-stuck',
  lastCompletedStep: 'Canary at 25%',
  likelyCause: 'The canary has been paused for 20 min',
  whereToLook: [],
};

/** dev runs b, test still a (waiting to climb), prod a. */
function climbing(): Ladder {
  const result = ladder(
    stage('dev', { cart: { digest: d('b') } }),
    stage('test', { cart: { digest: d('a') } }),
    stage('prod', { cart: { digest: d('a') } }),
  );
  result.stages[1].services.cart.waitingToClimb = true;
  return result;
}

describe('overviewRow', () => {
  const cells = (l: Ladder) => overviewRow(l, { owners: ['group:default/alpha'] }).cells;

  it('names the Product, its team and owners, one cell per stage bottom first', () => {
    const row = overviewRow(climbing(), { owners: ['group:default/alpha'], title: 'Shop' });
    expect(row).toMatchObject({ product: 'alpha/shop', team: 'alpha', title: 'Shop', owners: ['group:default/alpha'] });
    expect(row.cells.map(c => c.stage)).toEqual(['dev', 'test', 'prod']);
  });

  it.each<[string, (l: Ladder) => void, string]>([
    ['healthy', () => {}, 'healthy'],
    ['progressing', l => { l.stages[1].verdict = 'progressing'; }, 'progressing'],
    ['unknown', l => { l.stages[1].verdict = 'unknown'; }, 'unknown'],
    ['unhealthy below the stuck thresholds reads as still moving', l => { l.stages[1].verdict = 'unhealthy'; }, 'progressing'],
    ['stuck by the diagnosis', l => { l.stages[1].verdict = 'unhealthy'; l.stages[1].stuck = true; }, 'stuck'],
  ])('verdict: %s', (_, change, verdict) => {
    const l = climbing();
    change(l);
    expect(cells(l)[1].verdict).toBe(verdict);
  });

  it.each<[string, (l: Ladder) => void, boolean, string | undefined]>([
    ['behind, since the digest below was first healthy', l => { l.stages[0].services.cart.healthySince = '2026-12-01T09:00:00Z'; }, false, '2026-12-01T09:00:00Z'],
    [
      'behind, since the merge that brought the digest below',
      l => {
        l.stages[0].services.cart.healthySince = '2026-12-01T09:30:00Z';
        l.stages[0].services.cart.arrivedWith = { promotionId: 'p', kind: 'promotion', requestedBy: 'x', pullRequest: { number: 1, url: '' }, mergedAt: '2026-12-01T09:00:00Z' };
      },
      false,
      '2026-12-01T09:00:00Z',
    ],
    [
      'behind, since the branch history says the digest below arrived (a push or a hand-merged PR)',
      l => {
        l.stages[0].services.cart.healthySince = '2026-12-01T09:30:00Z';
        l.stages[0].services.cart.arrivedAt = '2026-11-30T09:00:00Z';
      },
      false,
      '2026-11-30T09:00:00Z',
    ],
    ['behind, since the Release below was seen, when nothing else is known', l => { l.stages[0].releaseSeenAt = '2026-12-01T08:00:00Z'; }, false, '2026-12-01T08:00:00Z'],
    ['behind, since unknown', () => {}, false, undefined],
    ['matching the stage below', l => { l.stages[1].services.cart.waitingToClimb = false; }, true, undefined],
    [
      'not matching an older digest below (a rollback below), though it does not climb',
      l => {
        l.stages[0].releaseSeenAt = '2026-12-01T08:00:00Z';
        l.stages[1].services.cart.waitingToClimb = false;
        l.stages[1].services.cart.incomingAge = { age: 'older', reason: 'rolled back below' };
      },
      false,
      '2026-12-01T08:00:00Z',
    ],
  ])('test is %s', (_, change, matchesBelow, behindSince) => {
    const l = climbing();
    change(l);
    expect(cells(l)[1]).toMatchObject({ matchesBelow, behindSince });
  });

  it('the bottom stage matches by definition', () => {
    expect(cells(climbing())[0]).toMatchObject({ matchesBelow: true, behindSince: undefined });
  });

  it('the earliest of several services behind', () => {
    const l = ladder(
      stage('dev', { cart: { digest: d('b') }, web: { digest: d('c') } }),
      stage('test', { cart: { digest: d('a') }, web: { digest: d('a') } }),
    );
    l.stages[1].services.cart.waitingToClimb = true;
    l.stages[1].services.web.waitingToClimb = true;
    l.stages[0].services.cart.healthySince = '2026-12-01T10:00:00Z';
    l.stages[0].services.web.healthySince = '2026-12-01T09:00:00Z';
    expect(cells(l)[1].behindSince).toBe('2026-12-01T09:00:00Z');
  });

  it('counts holds, open promotions and those awaiting approval per stage', () => {
    const l = climbing();
    l.stages[2].services.cart.hold = { stage: 'prod', service: 'cart', reason: 'freeze', placedBy: 'user:default/bob', placedAt: '' };
    l.promotions = [
      promotion('prod', 'awaiting-approval'),
      promotion('test', 'open'),
      promotion('test', 'approved'),
      promotion('test', 'merged'),
      promotion('test', 'closed'),
      promotion('test', 'failed'),
    ];
    expect(cells(l).map(({ stage: name, holds, openPromotions, awaitingApproval }) => ({ name, holds, openPromotions, awaitingApproval }))).toEqual([
      { name: 'dev', holds: 0, openPromotions: 0, awaitingApproval: 0 },
      { name: 'test', holds: 0, openPromotions: 2, awaitingApproval: 0 },
      { name: 'prod', holds: 1, openPromotions: 1, awaitingApproval: 1 },
    ]);
  });
});

describe('stuckItems', () => {
  it('none when nothing is stuck', () => {
    const l = climbing();
    l.stages[1].services.cart.diagnosis = { ...stuckDiagnosis, state: 'in-progress', code: 'canary-soaking' };
    expect(stuckItems(l, [])).toEqual([]);
  });

  it('a stuck deployment, stuck since its Release was seen', () => {
    const l = climbing();
    l.stages[1].services.cart.diagnosis = stuckDiagnosis;
    l.stages[1].releaseSeenAt = '2026-12-01T09:00:00Z';
    expect(stuckItems(l, ['group:default/alpha'])).toEqual([
      {
        product: 'alpha/shop',
        team: 'alpha',
        stage: 'test',
        service: 'cart',
        summary: 'cart in test: Canary at 25%',
        diagnosis: stuckDiagnosis,
        stuckSince: '2026-12-01T09:00:00Z',
        owners: ['group:default/alpha'],
      },
    ]);
  });

  it('a stuck pull request, stuck since it last moved', () => {
    const l = climbing();
    l.stages[1].releaseSeenAt = '2026-12-01T08:00:00Z';
    l.stages[1].services.cart.diagnosis = { ...stuckDiagnosis, code: 'checks-failing' };
    l.promotions = [promotion('test', 'open', '2026-12-01T09:30:00Z')];
    expect(stuckItems(l, [])[0].stuckSince).toBe('2026-12-01T09:30:00Z');
  });
});
