import { d, ladder, stage } from '../__testUtils__/ladders';
import { planPromotion, PromotionPlan, promotability } from './planPromotion';

/** A plan that must be a refusal (the test fails otherwise), as one. */
function refused(plan: PromotionPlan): Extract<PromotionPlan, { allowed: false }> {
  if (plan.allowed) throw new Error('Expected the plan to be refused, but it is allowed');
  return plan;
}

const shop = ladder(
  stage('dev', { storefront: { digest: d('a') }, cart: { digest: d('c') }, checkout: { digest: d('e') } }),
  stage('test', { storefront: { digest: d('b') }, cart: { digest: d('c') }, checkout: { digest: d('f') } }),
  stage('uat', { storefront: { digest: d('b') }, cart: { digest: d('c') } }, { declared: ['storefront', 'cart'] }),
  stage('staging', { storefront: { digest: d('b') }, cart: { digest: d('9') }, checkout: { digest: d('f') } }),
  stage('prod', { storefront: { digest: d('b') }, cart: { digest: d('8') }, checkout: { digest: d('f') } }),
);

describe('planPromotion', () => {
  it('with no services named, carries every differing declared healthy service one rung up', () => {
    const plan = planPromotion(shop, { toStage: 'test' });
    expect(plan).toMatchObject({
      allowed: true,
      fromStage: 'dev',
      toStage: 'test',
      requiresApproval: false,
      services: { storefront: d('a'), checkout: d('e') },
      previous: { storefront: d('b'), checkout: d('f') },
    });
  });

  it('marks the approval stage', () => {
    const plan = planPromotion(shop, { toStage: 'prod' });
    expect(plan).toMatchObject({ allowed: true, fromStage: 'staging', requiresApproval: true, services: { cart: d('9') } });
  });

  it('leaves out, with the reason, a differing service the target does not declare', () => {
    const plan = planPromotion(shop, { toStage: 'uat' });
    expect(plan.allowed).toBe(false);
    if (plan.allowed) return;
    expect(plan.refusal).toBe('not-declared');
    expect(plan.reason).toBe("uat's Environment does not declare checkout");
  });

  it.each([
    ['a named service the target does not declare', { toStage: 'uat', services: ['checkout'] }, 'not-declared', /does not declare checkout/],
    ['the first stage', { toStage: 'dev' }, 'no-stage-below', /first stage/],
    ['an unknown stage', { toStage: 'qa' }, 'unknown-stage', /Unknown stage 'qa'/],
    ['an unknown service', { toStage: 'test', services: ['payments'] }, 'unknown-service', /payments is not a service/],
    ['a named service already carried', { toStage: 'test', services: ['cart'] }, 'nothing-to-promote', /already carries cart/],
    ['a rung with nothing new', { toStage: 'uat', services: ['cart'] }, 'nothing-to-promote', /already carries/],
  ] as const)('refuses %s', (_name, request, refusal, reason) => {
    const plan = planPromotion(shop, request as { toStage: string; services?: string[] });
    expect(plan).toMatchObject({ allowed: false, refusal });
    expect(refused(plan).reason).toMatch(reason);
  });

  it.each([
    ['unhealthy', 'progressing', /storefront is not healthy in dev: storefront is progressing/],
    ['degraded', 'unhealthy', /storefront is not healthy in dev/],
    ['unknown health', 'unknown', /storefront's health in dev is unknown/],
  ] as const)('refuses a named service whose source is %s', (_name, verdict, reason) => {
    const l = ladder(
      stage('dev', { storefront: { digest: d('a'), verdict } }),
      stage('test', { storefront: { digest: d('b') } }),
    );
    const plan = planPromotion(l, { toStage: 'test', services: ['storefront'] });
    expect(plan).toMatchObject({ allowed: false, refusal: 'unhealthy' });
    expect(refused(plan).reason).toMatch(reason);
  });

  it('with no services named, promotes the healthy ones and reports the unhealthy one', () => {
    const l = ladder(
      stage('dev', { storefront: { digest: d('a'), verdict: 'unhealthy' }, cart: { digest: d('c') } }),
      stage('test', { storefront: { digest: d('b') }, cart: { digest: d('d') } }),
    );
    const plan = planPromotion(l, { toStage: 'test' });
    expect(plan).toMatchObject({ allowed: true, services: { cart: d('c') } });
    expect(plan.plan.find(p => p.service === 'storefront')).toMatchObject({ included: false, reason: expect.stringMatching(/not healthy/) });
  });

  it('refuses when every differing service is unhealthy', () => {
    const l = ladder(
      stage('dev', { storefront: { digest: d('a'), verdict: 'unknown' } }),
      stage('test', { storefront: { digest: d('b') } }),
    );
    expect(planPromotion(l, { toStage: 'test' })).toMatchObject({ allowed: false, refusal: 'unhealthy' });
  });

  it('refuses a named service the source does not release', () => {
    const l = ladder(stage('dev', { cart: {} }), stage('test', { cart: { digest: d('b') } }));
    expect(planPromotion(l, { toStage: 'test', services: ['cart'] })).toMatchObject({ allowed: false, refusal: 'not-released' });
  });

  it('promotes into a stage that has never released the service', () => {
    const l = ladder(stage('dev', { cart: { digest: d('a') } }), stage('test', { cart: {} }));
    expect(planPromotion(l, { toStage: 'test' })).toMatchObject({ allowed: true, previous: { cart: null } });
  });

  it('ignores duplicate names', () => {
    expect(planPromotion(shop, { toStage: 'test', services: ['storefront', 'storefront'] })).toMatchObject({
      allowed: true,
      services: { storefront: d('a') },
    });
  });
});

describe('promotability', () => {
  it('explains a rung and a cell', () => {
    expect(promotability(shop, 'test')).toEqual({ allowed: true, reason: 'Promote storefront, checkout from dev' });
    expect(promotability(shop, 'prod', 'cart')).toEqual({ allowed: true, reason: 'Promote cart from staging (needs a release-approver)' });
    expect(promotability(shop, 'test', 'cart').allowed).toBe(false);
    expect(promotability(shop, 'dev').reason).toMatch(/first stage/);
  });
});

describe('planPromotion with holds and soak times', () => {
  it('refuses while the source digest is soaking, saying how long is left', () => {
    const l = ladder(stage('dev', { cart: { digest: d('a') } }), stage('test', { cart: { digest: d('b') } }));
    l.stages[0].services.cart.soakRemainingSeconds = 250;
    const plan = planPromotion(l, { toStage: 'test' });
    expect(plan).toMatchObject({ allowed: false, refusal: 'soaking' });
    expect(refused(plan).reason).toBe('cart is soaking in dev: 4m 10s left');
  });

  it('refuses into a held stage, naming the hold', () => {
    const l = ladder(stage('dev', { cart: { digest: d('a') } }), stage('test', { cart: { digest: d('b') } }));
    l.stages[1].services.cart.hold = {
      stage: 'test',
      service: 'cart',
      reason: 'Rolled back',
      placedBy: 'user:default/bob',
      placedAt: '2026-11-30T00:00:00Z',
    };
    const plan = planPromotion(l, { toStage: 'test', services: ['cart'] });
    expect(plan).toMatchObject({ allowed: false, refusal: 'held' });
    expect(refused(plan).reason).toMatch(/held in test: Rolled back \(by bob\)/);
  });
});
