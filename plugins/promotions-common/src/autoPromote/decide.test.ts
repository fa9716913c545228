import type { Ladder } from '../ladder/types';
import type { Promotion } from '../promotions/types';
import { CellSpec, d, ladder, stage } from '../__testUtils__/ladders';
import {
  AutoDecision,
  AutoPromoteContext,
  decideAutoPromotions,
  healthySinceKey,
  soakRemaining,
} from './decide';

const NOW = new Date('2025-06-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

function context(overrides: Partial<AutoPromoteContext> = {}): AutoPromoteContext {
  return { holds: [], soakSeconds: {}, healthySince: {}, livePromotions: [], now: NOW, ...overrides };
}

/** The one decision for (toStage, service). */
function decisionFor(decisions: AutoDecision[], toStage: string, service: string): AutoDecision {
  const found = decisions.filter(x => x.toStage === toStage && x.service === service);
  expect(found).toHaveLength(1);
  return found[0];
}

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
        reason: 'not a downgrade: test ran sha256:aaaa… before and moved on; only a person rolls test back',
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
      { decision: 'skip', digest: d('a'), reason: 'held in test: load test running (by user:default/ana)' },
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

describe('decideAutoPromotions: the ladder walk', () => {
  const five = (cells: Record<string, Record<string, CellSpec>>) =>
    ladder(
      stage('dev', cells.dev ?? {}),
      stage('test', cells.test ?? {}),
      stage('uat', cells.uat ?? {}),
      stage('staging', cells.staging ?? {}),
      stage('prod', cells.prod ?? {}),
    );

  const pairsOf = (plan: { decisions: AutoDecision[] }) => [
    ...new Set(plan.decisions.map(x => `${x.fromStage}->${x.toStage}`)),
  ];

  it('walks dev→test, test→uat, uat→staging and never into prod', () => {
    const l = five({
      dev: { storefront: { digest: d('a') } },
      test: { storefront: { digest: d('b') } },
      uat: { storefront: { digest: d('c') } },
      staging: { storefront: { digest: d('e') } },
      prod: { storefront: { digest: d('f') } },
    });
    const plan = decideAutoPromotions(l, context());
    expect(pairsOf(plan)).toEqual(['dev->test', 'test->uat', 'uat->staging']);
    expect(plan.decisions.some(x => x.toStage === 'prod')).toBe(false);
    expect(plan.promotions.map(p => p.toStage)).toEqual(['test', 'uat', 'staging']);
  });

  it('moves each digest at most one rung, even when every stage is healthy', () => {
    const l = five({
      dev: { storefront: { digest: d('a') } },
      test: { storefront: { digest: d('b') } },
      uat: { storefront: { digest: d('b') } },
      staging: { storefront: { digest: d('b') } },
      prod: { storefront: { digest: d('b') } },
    });
    const plan = decideAutoPromotions(l, context());
    expect(plan.decisions).toEqual([
      expect.objectContaining({ toStage: 'test', decision: 'promote', digest: d('a') }),
      expect.objectContaining({ toStage: 'uat', decision: 'skip', digest: d('b'), reason: 'uat already carries it' }),
      expect.objectContaining({ toStage: 'staging', decision: 'skip', digest: d('b'), reason: 'staging already carries it' }),
    ]);
    expect(plan.promotions).toEqual([{ fromStage: 'dev', toStage: 'test', services: ['storefront'] }]);
  });

  it('with a different digest on every rung, each rung gets the digest of the rung below as read at the start', () => {
    const l = five({
      dev: { storefront: { digest: d('a') } },
      test: { storefront: { digest: d('b') } },
      uat: { storefront: { digest: d('c') } },
      staging: { storefront: { digest: d('e') } },
    });
    const plan = decideAutoPromotions(l, context());
    expect(plan.decisions.map(x => [x.toStage, x.decision, x.digest])).toEqual([
      ['test', 'promote', d('a')],
      ['uat', 'promote', d('b')],
      ['staging', 'promote', d('c')],
    ]);
  });

  it('never walks pairs above the first approval stage', () => {
    const l = ladder(
      stage('dev', { storefront: { digest: d('a') } }),
      stage('test', { storefront: { digest: d('b') } }),
      stage('preprod', { storefront: { digest: d('c') } }, { requiresApproval: true }),
      stage('staging', { storefront: { digest: d('e') } }),
      stage('prod', { storefront: { digest: d('f') } }, { requiresApproval: true }),
    );
    const plan = decideAutoPromotions(l, context());
    expect(pairsOf(plan)).toEqual(['dev->test']);
    expect(plan.promotions).toEqual([{ fromStage: 'dev', toStage: 'test', services: ['storefront'] }]);
  });

  it('walks nothing when the second stage already needs approval', () => {
    const l = ladder(
      stage('dev', { storefront: { digest: d('a') } }),
      stage('prod', { storefront: { digest: d('b') } }),
    );
    expect(decideAutoPromotions(l, context())).toEqual({ decisions: [], promotions: [] });
  });

  it('walks every pair when no stage needs approval', () => {
    const l = ladder(
      stage('dev', { storefront: { digest: d('a') } }),
      stage('test', { storefront: { digest: d('b') } }),
      stage('live', { storefront: { digest: d('c') } }, { requiresApproval: false }),
    );
    expect(pairsOf(decideAutoPromotions(l, context()))).toEqual(['dev->test', 'test->live']);
  });

  it('walks nothing on a one-stage ladder', () => {
    expect(decideAutoPromotions(ladder(stage('dev', { storefront: { digest: d('a') } })), context())).toEqual({
      decisions: [],
      promotions: [],
    });
  });

  it('a soak is read in the source stage of each rung', () => {
    const l = five({
      dev: { storefront: { digest: d('a') } },
      test: { storefront: { digest: d('b') } },
      uat: { storefront: { digest: d('c') } },
    });
    const plan = decideAutoPromotions(
      l,
      context({
        soakSeconds: { test: 3600 },
        healthySince: { [healthySinceKey('test', 'storefront', d('b'))]: ago(600) },
      }),
    );
    expect(decisionFor(plan.decisions, 'test', 'storefront').decision).toBe('promote');
    expect(decisionFor(plan.decisions, 'uat', 'storefront')).toMatchObject({
      decision: 'skip',
      soakRemainingSeconds: 3000,
      reason: 'soaking in test: 50m left of 1h',
    });
  });
});

describe('decideAutoPromotions: services and grouping', () => {
  const shop = ladder(
    stage('dev', {
      storefront: { digest: d('a') },
      cart: { digest: d('c') },
      checkout: { digest: d('e') },
      search: { digest: d('1'), verdict: 'unhealthy' },
    }),
    stage('test', {
      storefront: { digest: d('b') },
      cart: { digest: d('9') },
      checkout: { digest: d('e') },
      search: { digest: d('2') },
      ledger: { digest: d('3') },
    }),
    stage(
      'uat',
      { storefront: { digest: d('b') }, cart: { digest: d('8') }, search: { digest: d('4') } },
      { declared: ['storefront', 'cart', 'search'] },
    ),
    stage('staging', { storefront: { digest: d('b') } }, { declared: ['storefront'] }),
    stage('prod', { storefront: { digest: d('b') }, cart: { digest: d('0') } }),
  );

  it('decides every service either stage mentions, in ladder order, one decision each', () => {
    const plan = decideAutoPromotions(shop, context());
    expect(plan.decisions.map(x => `${x.fromStage}->${x.toStage} ${x.service} ${x.decision}: ${x.reason}`)).toEqual([
      'dev->test storefront promote: dev runs it healthy; test has another digest',
      'dev->test cart promote: dev runs it healthy; test has another digest',
      'dev->test checkout skip: test already carries it',
      'dev->test search skip: search is not healthy in dev: search is unhealthy',
      'dev->test ledger skip: ledger is not released in dev',
      'test->uat storefront skip: uat already carries it',
      'test->uat cart promote: test runs it healthy; uat has another digest',
      "test->uat checkout refuse: uat's Environment does not declare checkout",
      'test->uat search promote: test runs it healthy; uat has another digest',
      "test->uat ledger refuse: uat's Environment does not declare ledger",
      'uat->staging storefront skip: staging already carries it',
      "uat->staging cart refuse: staging's Environment does not declare cart",
      "uat->staging search refuse: staging's Environment does not declare search",
    ]);
  });

  it('groups the promote decisions into one promotion per target stage', () => {
    expect(decideAutoPromotions(shop, context()).promotions).toEqual([
      { fromStage: 'dev', toStage: 'test', services: ['storefront', 'cart'] },
      { fromStage: 'test', toStage: 'uat', services: ['cart', 'search'] },
    ]);
  });

  it('a hold on one service leaves the others of the rung to promote', () => {
    const plan = decideAutoPromotions(
      shop,
      context({ holds: [{ stage: 'test', service: 'cart', reason: 'bug 42', placedBy: 'ana', placedAt: ago(1) }] }),
    );
    expect(decisionFor(plan.decisions, 'test', 'cart').reason).toBe('held in test: bug 42 (by ana)');
    expect(plan.promotions[0]).toEqual({ fromStage: 'dev', toStage: 'test', services: ['storefront'] });
  });

  it('an open promotion into one stage stops that whole rung but not the others', () => {
    const plan = decideAutoPromotions(shop, context({ livePromotions: [{ toStage: 'test', services: { storefront: d('7') } }] }));
    expect(plan.decisions.filter(x => x.toStage === 'test' && x.decision === 'promote')).toEqual([]);
    expect(decisionFor(plan.decisions, 'test', 'cart').reason).toBe('a promotion into test is already open');
    expect(plan.promotions).toEqual([{ fromStage: 'test', toStage: 'uat', services: ['cart', 'search'] }]);
  });

  it('carries the digest it judged on every decision that had one', () => {
    const plan = decideAutoPromotions(shop, context());
    expect(decisionFor(plan.decisions, 'test', 'storefront').digest).toBe(d('a'));
    expect(decisionFor(plan.decisions, 'uat', 'cart').digest).toBe(d('9'));
    expect(decisionFor(plan.decisions, 'test', 'ledger').digest).toBeUndefined();
  });
});

describe('soakRemaining', () => {
  const key = `dev/storefront/${d('a')}`;
  it.each<[string, Pick<AutoPromoteContext, 'soakSeconds' | 'healthySince'>, number]>([
    ['no soak configured', { soakSeconds: {}, healthySince: {} }, 0],
    ['a zero soak', { soakSeconds: { dev: 0 } , healthySince: {} }, 0],
    ['a soak for another stage only', { soakSeconds: { test: 600 }, healthySince: {} }, 0],
    ['unknown healthySince', { soakSeconds: { dev: 600 }, healthySince: {} }, 600],
    ['an unparseable healthySince', { soakSeconds: { dev: 600 }, healthySince: { [key]: 'yesterday' } }, 600],
    ['healthy for part of the soak', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(350) } }, 250],
    ['part of a second left rounds up', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(599.5) } }, 1],
    ['healthy exactly the soak', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(600) } }, 0],
    ['healthy longer than the soak', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(86400) } }, 0],
    ['healthySince in the future (clock skew)', { soakSeconds: { dev: 600 }, healthySince: { [key]: ago(-120) } }, 600],
  ])('%s', (_name, ctx, expected) => {
    expect(soakRemaining('dev', 'storefront', d('a'), { ...ctx, now: NOW })).toBe(expected);
  });
});
