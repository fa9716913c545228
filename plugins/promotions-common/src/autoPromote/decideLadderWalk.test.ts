import { CellSpec, d, ladder, stage } from '../__testUtils__/ladders';
import { AutoDecision, decideAutoPromotions } from './decide';
import { healthySinceKey } from './soak';
import { ago, context, decisionFor } from './__testUtils__/decideContext';

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
    // Upper rung first: each PR carries its source's digest before the rung below moves it.
    expect(plan.promotions.map(p => p.toStage)).toEqual(['staging', 'uat', 'test']);
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
      { fromStage: 'test', toStage: 'uat', services: ['cart', 'search'] },
      { fromStage: 'dev', toStage: 'test', services: ['storefront', 'cart'] },
    ]);
  });

  it('a hold on one service leaves the others of the rung to promote', () => {
    const plan = decideAutoPromotions(
      shop,
      context({ holds: [{ stage: 'test', service: 'cart', reason: 'bug 42', placedBy: 'ana', placedAt: ago(1) }] }),
    );
    expect(decisionFor(plan.decisions, 'test', 'cart').reason).toBe('held in test: bug 42 (by ana)');
    expect(plan.promotions.find(p => p.toStage === 'test')).toEqual({ fromStage: 'dev', toStage: 'test', services: ['storefront'] });
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

