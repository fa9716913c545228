import { parseWaitTimeout, promotionProgress, PromotionWaitTarget, WaitedStageCell } from './waiting';

const services = { storefront: 'sha256:new' };
const healthy: Record<string, WaitedStageCell> = { storefront: { digest: 'sha256:new', verdict: 'healthy' } };

describe('promotionProgress', () => {
  it.each<[string, string, PromotionWaitTarget, Record<string, WaitedStageCell> | undefined, string]>([
    ['open, waiting until merged', 'open', 'merged', undefined, 'waiting'],
    ['awaiting approval', 'awaiting-approval', 'merged', undefined, 'waiting'],
    ['approved, not merged yet', 'approved', 'healthy', undefined, 'waiting'],
    ['merged, waiting until merged', 'merged', 'merged', undefined, 'reached'],
    ['merged, waiting until healthy, stage not read yet', 'merged', 'healthy', undefined, 'needs-stage'],
    ['merged, and the stage runs it healthy', 'merged', 'healthy', healthy, 'reached'],
    ['merged, the stage still progressing', 'merged', 'healthy', { storefront: { digest: 'sha256:new', verdict: 'progressing' } }, 'waiting'],
    ['merged, the stage healthy on the old digest', 'merged', 'healthy', { storefront: { digest: 'sha256:old', verdict: 'healthy' } }, 'waiting'],
    ['merged, the service not in the stage', 'merged', 'healthy', {}, 'waiting'],
    ['closed', 'closed', 'merged', undefined, 'ended'],
    ['failed, waiting until healthy', 'failed', 'healthy', healthy, 'ended'],
  ])('%s', (_name, status, until, cells, expected) => {
    expect(promotionProgress({ status, services }, until, cells)).toBe(expected);
  });

  it('needs every promoted service healthy', () => {
    const two = { storefront: 'sha256:new', cart: 'sha256:c2' };
    const cells = { ...healthy, cart: { digest: 'sha256:c2', verdict: 'unhealthy' } };
    expect(promotionProgress({ status: 'merged', services: two }, 'healthy', cells)).toBe('waiting');
  });
});

describe('parseWaitTimeout', () => {
  it.each([
    ['15m', 900_000],
    ['90s', 90_000],
    ['1h', 3_600_000],
    ['500ms', 500],
    [' 2m ', 120_000],
    ['PT15M', 900_000],
    ['pt1h30m', 5_400_000],
    ['15', undefined],
    ['soon', undefined],
    ['P', undefined],
    ['PT0S', undefined],
    ['-5m', undefined],
    ['', undefined],
  ])('%p → %p', (value, expected) => {
    expect(parseWaitTimeout(value)).toBe(expected);
  });
});
