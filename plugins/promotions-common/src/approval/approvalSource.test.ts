import { d, ladder, stage } from '../__testUtils__/ladders';
import { Ladder } from '../ladder/types';
import { ApprovalSource, approvalSource } from './approvalSource';

const CART = d('c');
const NEWER = d('e');

/** alpha/shop whose staging has cart at `digest`, soaking 10 min, healthy 4 min of them. */
function withStaging(digest: string, verdict: 'healthy' | 'unhealthy' | 'progressing' = 'healthy', soakLeft = 360): Ladder {
  const staging = { ...stage('staging', { cart: { digest, verdict } }), soakSeconds: 600 };
  const cell = staging.services.cart;
  if (verdict === 'healthy') {
    cell.healthySince = '2026-12-01T10:00:00Z';
    cell.soakRemainingSeconds = soakLeft;
  }
  return ladder(staging, stage('prod', { cart: { digest: d('a') } }));
}

const promotion: { fromStage: string; services: Record<string, string> } = { fromStage: 'staging', services: { cart: CART } };

describe('approvalSource', () => {
  it.each<[string, Ladder, Partial<typeof promotion> & { kind?: 'promotion' | 'rollback' }, ApprovalSource | undefined]>([
    [
      'healthy and soaked',
      withStaging(CART, 'healthy', 0),
      {},
      {
        stage: 'staging',
        soakSeconds: 600,
        services: [
          { service: 'cart', digest: CART, stillInSource: true, verdict: 'healthy', healthySince: '2026-12-01T10:00:00Z', soakRemainingSeconds: 0 },
        ],
      },
    ],
    [
      'healthy, still soaking',
      withStaging(CART),
      {},
      {
        stage: 'staging',
        soakSeconds: 600,
        services: [
          { service: 'cart', digest: CART, stillInSource: true, verdict: 'healthy', healthySince: '2026-12-01T10:00:00Z', soakRemainingSeconds: 360 },
        ],
      },
    ],
    [
      'unhealthy: no healthy-since, no soak',
      withStaging(CART, 'unhealthy'),
      {},
      { stage: 'staging', soakSeconds: 600, services: [{ service: 'cart', digest: CART, stillInSource: true, verdict: 'unhealthy' }] },
    ],
    [
      'moved on: the newer digest’s healthy-since and soak are not the promoted one’s',
      withStaging(NEWER),
      {},
      {
        stage: 'staging',
        soakSeconds: 600,
        services: [{ service: 'cart', digest: CART, stillInSource: false, nowInSource: NEWER, verdict: 'healthy' }],
      },
    ],
    [
      'a stage without soak time, a Service it does not have',
      ladder(stage('staging', { cart: { digest: CART } }), stage('prod', {})),
      { services: { cart: CART, checkout: d('b') } },
      {
        stage: 'staging',
        services: [
          { service: 'cart', digest: CART, stillInSource: true, verdict: 'healthy' },
          { service: 'checkout', digest: d('b'), stillInSource: false, verdict: 'unknown' },
        ],
      },
    ],
    [
      'a stage the ladder no longer has',
      withStaging(CART),
      { fromStage: 'uat' },
      { stage: 'uat', services: [{ service: 'cart', digest: CART, stillInSource: false, verdict: 'unknown' }] },
    ],
    ['a rollback has no source to judge', withStaging(CART), { kind: 'rollback' }, undefined],
  ])('%s', (_name, given, change, source) => {
    expect(approvalSource(given, { ...promotion, ...change })).toEqual(source);
  });
});
