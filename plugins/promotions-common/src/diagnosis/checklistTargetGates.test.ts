import { NEW } from './__testUtils__/diagnosisInput';
import { GateRow, gateOf } from './__testUtils__/checklistCells';

const PR = 'https://github.com/asanexample/platform/pull/7';

/** The gates of the target stage: its hold, a promotion in flight, approval, what it carries. */
describe('promotionChecklist', () => {
  it.each<GateRow>([
    [
      'held in the target',
      undefined,
      {
        hold: {
          stage: 'prod',
          service: 'storefront',
          reason: 'incident INC-12',
          placedBy: 'user:default/sre',
          placedAt: '2025-06-01T10:00:00Z',
        },
      },
      {},
      'hold',
      false,
      'Held in prod by sre since 2025-06-01T10:00:00Z: incident INC-12',
    ],
    ['no hold', undefined, {}, {}, 'hold', true, 'No hold in prod'],
    [
      'a promotion already open',
      undefined,
      {},
      { openPromotion: { status: 'awaiting-approval', pullRequestUrl: PR } },
      'open-promotion',
      false,
      `A promotion into prod is already awaiting-approval: ${PR}`,
    ],
    [
      'a merged promotion does not block',
      undefined,
      {},
      { openPromotion: { status: 'merged', pullRequestUrl: PR } },
      'open-promotion',
      true,
      'No promotion into prod in flight',
    ],
    [
      'approval needed',
      undefined,
      {},
      { approvers: ['group:default/a', 'group:default/b'] },
      'approval',
      true,
      'prod needs a release-approver: members of a, b',
    ],
    [
      'approval needed, no approvers',
      undefined,
      {},
      { approvers: [] },
      'approval',
      true,
      'no approver group is configured',
    ],
    [
      'no approval',
      undefined,
      {},
      { requiresApproval: false },
      'approval',
      true,
      'prod merges automatically',
    ],
    [
      'already carried',
      undefined,
      { digest: NEW },
      {},
      'carried',
      false,
      'prod already carries sha256:aaaaaaaaaaaa…: nothing to promote',
    ],
    [
      'target has nothing yet',
      undefined,
      { digest: undefined },
      {},
      'carried',
      true,
      'prod has no digest yet',
    ],
  ])('%s', (_name, source, target, context, gateName, ok, detail) => {
    const item = gateOf(source, target, context, gateName);
    expect(item.ok).toBe(ok);
    expect(item.detail).toContain(detail);
  });
});
