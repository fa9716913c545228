import type { Ladder } from '../ladder/types';
import type { Promotion } from '../promotions/types';
import { CellSpec, d, ladder, stage } from '../__testUtils__/ladders';
import { AutoDecision, AutoPromoteContext, decideAutoPromotions } from './decide';
import { ago, context, decisionFor } from './__testUtils__/decideContext';

/** A two-stage ladder dev → test for one service. */
function pair(source: CellSpec | undefined, target: CellSpec | undefined, targetDeclares = true): Ladder {
  return ladder(
    stage('dev', source ? { storefront: source } : {}),
    stage('test', target ? { storefront: target } : {}, {
      declared: targetDeclares ? ['storefront'] : [],
    }),
  );
}

describe('decideAutoPromotions: one service, one rung', () => {
  it.each<[string, Ladder, Partial<AutoPromoteContext>, Partial<AutoDecision>]>([
    [
      'a healthy source with an older digest in the target: promote',
      pair({ digest: d('a') }, { digest: d('b'), incomingAge: { age: 'newer' } }),
      {},
      { decision: 'promote', digest: d('a'), reason: 'dev runs it healthy; test has an older digest' },
    ],
    [
      'a healthy source whose age against the target is not known: promote, without calling it newer',
      pair({ digest: d('a') }, { digest: d('b') }),
      {},
      { decision: 'promote', digest: d('a'), reason: 'dev runs it healthy; test has another digest' },
    ],
    [
      'a healthy source older than the target (a rollback below, a lifted hold): never a downgrade',
      pair(
        { digest: d('a') },
        { digest: d('b'), incomingAge: { age: 'older', reason: 'test ran sha256:aaaa… before and moved on' } },
      ),
      {},
      {
        decision: 'skip',
        digest: d('a'),
        reason: 'would be a downgrade: test ran sha256:aaaa… before and moved on; only a person rolls test back',
      },
    ],
    [
      'a healthy source and a declared target with no Release yet: promote',
      pair({ digest: d('a') }, { digest: undefined }),
      {},
      { decision: 'promote', digest: d('a'), reason: 'dev runs it healthy; test has none yet' },
    ],
    [
      'a source that does not release the service: skip',
      pair({ digest: undefined }, { digest: d('b') }),
      {},
      { decision: 'skip', reason: 'storefront is not released in dev' },
    ],
    [
      'a service only the target mentions: skip as not released',
      pair(undefined, { digest: d('b') }),
      {},
      { decision: 'skip', reason: 'storefront is not released in dev' },
    ],
    [
      'a target that already carries the digest: skip',
      pair({ digest: d('a') }, { digest: d('a') }),
      {},
      { decision: 'skip', digest: d('a'), reason: 'test already carries it' },
    ],
    [
      'a target that already carries it, even when the source is unhealthy: skip as carried',
      pair({ digest: d('a'), verdict: 'unhealthy' }, { digest: d('a') }),
      {},
      { decision: 'skip', reason: 'test already carries it' },
    ],
    [
      "a target whose Environment does not declare the service: refuse",
      pair({ digest: d('a') }, undefined, false),
      {},
      { decision: 'refuse', digest: d('a'), reason: "test's Environment does not declare storefront" },
    ],
    [
      'a hold on the target: skip with its reason and who placed it',
      pair({ digest: d('a') }, { digest: d('b') }),
      {
        holds: [
          { stage: 'test', service: 'storefront', reason: 'load test running', placedBy: 'user:default/ana', placedAt: ago(60) },
        ],
      },
      { decision: 'skip', digest: d('a'), reason: 'held in test: load test running (by ana)' },
    ],
    [
      'a hold on another stage or service does not stop it',
      pair({ digest: d('a') }, { digest: d('b') }),
      {
        holds: [
          { stage: 'dev', service: 'storefront', reason: 'x', placedBy: 'a', placedAt: ago(1) },
          { stage: 'test', service: 'cart', reason: 'y', placedBy: 'b', placedAt: ago(1) },
        ],
      },
      { decision: 'promote' },
    ],
    [
      'an open promotion into the target (for another service): skip',
      pair({ digest: d('a') }, { digest: d('b') }),
      { livePromotions: [{ toStage: 'test', services: { cart: d('c') } }] },
      { decision: 'skip', digest: d('a'), reason: 'a promotion into test is already open' },
    ],
    [
      'an open promotion into another stage does not stop it',
      pair({ digest: d('a') }, { digest: d('b') }),
      { livePromotions: [{ toStage: 'uat', services: { storefront: d('b') } }] },
      { decision: 'promote' },
    ],
    [
      'an unhealthy source: skip with the first reason',
      pair({ digest: d('a'), verdict: 'unhealthy', reasons: ['Rollout is Degraded', 'pods crash-looping'] }, { digest: d('b') }),
      {},
      { decision: 'skip', digest: d('a'), reason: 'storefront is not healthy in dev: Rollout is Degraded' },
    ],
    [
      'a progressing source: skip as not healthy',
      pair({ digest: d('a'), verdict: 'progressing' }, { digest: d('b') }),
      {},
      { decision: 'skip', reason: 'storefront is not healthy in dev: storefront is progressing' },
    ],
    [
      'a source whose health is unknown: skip',
      pair({ digest: d('a'), verdict: 'unknown', reasons: ['ArgoCD Application not found'] }, { digest: d('b') }),
      {},
      { decision: 'skip', reason: "storefront's health in dev is unknown: ArgoCD Application not found" },
    ],
    [
      'a source whose health is unknown without a reason: skip',
      pair({ digest: d('a'), verdict: 'unknown', reasons: [] }, { digest: d('b') }),
      {},
      { decision: 'skip', reason: "storefront's health in dev is unknown" },
    ],
    [
      'a soak not yet elapsed in the source: skip with the time left',
      pair({ digest: d('a') }, { digest: d('b') }),
      { soakSeconds: { dev: 600 }, healthySince: { [`dev/storefront/${d('a')}`]: ago(350) } },
      { decision: 'skip', digest: d('a'), soakRemainingSeconds: 250, reason: 'soaking in dev: 4m 10s left of 10m' },
    ],
    [
      'a soak that has elapsed: promote',
      pair({ digest: d('a') }, { digest: d('b') }),
      { soakSeconds: { dev: 600 }, healthySince: { [`dev/storefront/${d('a')}`]: ago(600) } },
      { decision: 'promote', soakRemainingSeconds: undefined },
    ],
    [
      'a soak with no record of since when it is healthy: skip for the whole soak',
      pair({ digest: d('a') }, { digest: d('b') }),
      { soakSeconds: { dev: 600 } },
      {
        decision: 'skip',
        soakRemainingSeconds: 600,
        reason: 'soaking in dev: 10m left of 10m (not yet known since when it is healthy in dev)',
      },
    ],
    [
      'a healthySince for an older digest does not count for the new one',
      pair({ digest: d('a') }, { digest: d('b') }),
      { soakSeconds: { dev: 600 }, healthySince: { [`dev/storefront/${d('9')}`]: ago(86400) } },
      { decision: 'skip', soakRemainingSeconds: 600 },
    ],
    [
      'a soak configured only for the target stage does not hold the source',
      pair({ digest: d('a') }, { digest: d('b') }),
      { soakSeconds: { test: 3600 } },
      { decision: 'promote' },
    ],
    [
      'no soak and no healthySince: promote',
      pair({ digest: d('a') }, { digest: d('b') }),
      { soakSeconds: {}, healthySince: {} },
      { decision: 'promote' },
    ],
  ])('%s', (_name, l, ctx, expected) => {
    const plan = decideAutoPromotions(l, context(ctx));
    const decision = decisionFor(plan.decisions, 'test', 'storefront');
    expect(decision).toMatchObject({ fromStage: 'dev', toStage: 'test', service: 'storefront' });
    for (const [key, value] of Object.entries(expected)) {
      expect(decision[key as keyof AutoDecision]).toEqual(value);
    }
    expect(plan.promotions).toEqual(
      expected.decision === 'promote'
        ? [{ fromStage: 'dev', toStage: 'test', services: ['storefront'] }]
        : [],
    );
  });
});

describe('decideAutoPromotions: order of the checks', () => {
  const base = () => pair({ digest: d('a'), verdict: 'unhealthy' }, { digest: d('b') });

  it('an undeclared target is refused before holds, promotions, health and soak are looked at', () => {
    const plan = decideAutoPromotions(
      pair({ digest: d('a'), verdict: 'unhealthy' }, undefined, false),
      context({
        holds: [{ stage: 'test', service: 'storefront', reason: 'r', placedBy: 'p', placedAt: ago(1) }],
        livePromotions: [{ toStage: 'test', services: {} }],
        soakSeconds: { dev: 60 },
      }),
    );
    expect(plan.decisions).toEqual([
      expect.objectContaining({ decision: 'refuse', reason: "test's Environment does not declare storefront" }),
    ]);
  });

  it('a hold wins over an open promotion and an unhealthy source', () => {
    const plan = decideAutoPromotions(
      base(),
      context({
        holds: [{ stage: 'test', service: 'storefront', reason: 'freeze', placedBy: 'bob', placedAt: ago(1) }],
        livePromotions: [{ toStage: 'test', services: {} }],
      }),
    );
    expect(plan.decisions[0].reason).toBe('held in test: freeze (by bob)');
  });

  it('an open promotion wins over an unhealthy source', () => {
    const plan = decideAutoPromotions(base(), context({ livePromotions: [{ toStage: 'test', services: {} }] }));
    expect(plan.decisions[0].reason).toBe('a promotion into test is already open');
  });

  it('an unhealthy source wins over the soak', () => {
    const plan = decideAutoPromotions(base(), context({ soakSeconds: { dev: 600 } }));
    expect(plan.decisions[0]).toMatchObject({ decision: 'skip', reason: 'storefront is not healthy in dev: storefront is unhealthy' });
    expect(plan.decisions[0].soakRemainingSeconds).toBeUndefined();
  });

  it("counts a live promotion the ladder lists but the caller's list lacks", () => {
    const l = pair({ digest: d('a') }, { digest: d('b') });
    const live = { toStage: 'test', status: 'awaiting-approval' } as Promotion;
    const done = { toStage: 'test', status: 'merged' } as Promotion;
    expect(decideAutoPromotions({ ...l, promotions: [live] }, context()).decisions[0].reason).toBe(
      'a promotion into test is already open',
    );
    expect(decideAutoPromotions({ ...l, promotions: [done] }, context()).decisions[0].decision).toBe('promote');
  });

  it('treats every source as of unknown health when the ladder could not read health', () => {
    const l = { ...pair({ digest: d('a') }, { digest: d('b') }), healthError: 'cluster unreachable' };
    expect(decideAutoPromotions(l, context()).decisions[0]).toMatchObject({
      decision: 'skip',
      reason: "storefront's health in dev is unknown: cluster unreachable",
    });
  });

  it('skips a rung whose Release or Environment could not be read', () => {
    const l = pair({ digest: d('a') }, { digest: d('b') });
    const badRelease = { ...l, stages: [l.stages[0], { ...l.stages[1], release: { path: 'test.yaml', error: 'not found' } }] };
    expect(decideAutoPromotions(badRelease, context()).decisions[0]).toMatchObject({
      decision: 'skip',
      reason: "test's Release could not be read: not found",
    });
    const badEnv = {
      ...l,
      stages: [l.stages[0], { ...l.stages[1], environment: { path: 'e', declaredServices: [], error: 'bad YAML' } }],
    };
    expect(decideAutoPromotions(badEnv, context()).decisions[0]).toMatchObject({
      decision: 'skip',
      reason: "test's Environment could not be read: bad YAML",
    });
  });
});

