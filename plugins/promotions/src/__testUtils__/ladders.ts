import { Ladder, LadderStage, Promotion } from '@refplat/plugin-promotions-common';

export const digest = (char: string) => `sha256:${char.repeat(64)}`;

const stage = (
  name: string,
  services: Record<string, string | undefined>,
  overrides: Partial<LadderStage> = {},
): LadderStage => ({
  name,
  requiresApproval: name === 'prod',
  healthy: true,
  verdict: 'healthy',
  reasons: [],
  release: { path: `gitops/releases/alpha/shop/${name}.yaml` },
  environment: {
    path: `gitops/environments/alpha/shop/${name}.yaml`,
    declaredServices: Object.keys(services),
  },
  services: Object.fromEntries(
    Object.entries(services).map(([service, value]) => [
      service,
      {
        digest: value,
        declared: true,
        healthy: true,
        verdict: 'healthy' as const,
        reasons: [],
        runningDigests: value ? [value] : [],
        waitingToClimb: false,
      },
    ]),
  ),
  ...overrides,
});

/** alpha/shop with a canary in dev and storefront waiting to climb into test. */
export function shopLadder(): Ladder {
  const stages = [
    stage('dev', { storefront: digest('a'), cart: digest('c') }),
    stage('test', { storefront: digest('b'), cart: digest('c') }),
    stage('prod', { storefront: digest('b'), cart: digest('c') }),
  ];
  const dev = stages[0].services.storefront;
  dev.verdict = 'progressing';
  dev.healthy = false;
  dev.reasons = ['Canary in progress: step 2 of 6, 25% of traffic'];
  dev.canary = {
    phase: 'Paused',
    currentStep: 3,
    totalSteps: 6,
    complete: false,
    weight: 25,
    paused: true,
    pauseReason: 'CanaryPauseStep',
    pausedForSeconds: 2,
    pauseDurationSeconds: 3,
    aborted: false,
  };
  stages[0].verdict = 'progressing';
  stages[0].healthy = false;
  stages[1].services.storefront.waitingToClimb = true;
  return {
    team: 'alpha',
    product: 'shop',
    services: ['storefront', 'cart'],
    stages,
    promotions: [],
    revision: 'abcdef0123456789',
    generatedAt: '2026-11-30T00:00:00.000Z',
  };
}

/** An open promotion of alpha/shop with PR #42. */
export function shopPromotion(overrides: Partial<Promotion> = {}): Promotion {
  return {
    id: 'p-1',
    team: 'alpha',
    product: 'shop',
    fromStage: 'test',
    toStage: 'prod',
    services: { storefront: digest('d') },
    previousServices: { storefront: digest('b') },
    status: 'open',
    requestedBy: 'user:default/alice',
    pullRequest: { number: 42, url: 'https://github.com/acme/platform/pull/42' },
    createdAt: '2026-11-30T00:00:00.000Z',
    updatedAt: '2026-11-30T00:00:00.000Z',
    ...overrides,
  };
}
