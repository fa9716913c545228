import { PromotionEvent } from '../promotions/types';
import type { PromotionApproval } from '../promotions/types';
import { missingApprovals, ownPartBarsApproval, promotionApproval } from './promotionApproval';

const HEAD = 'h2';
const BOB = 'user:default/bob';
const ALICE = 'user:default/alice';
const CAROL = 'user:default/carol';
const DAVE = 'user:default/dave';

const event = (type: PromotionEvent['type'], actor: string, detail?: string, at = '2026-12-01T10:00:00.000Z') => ({
  type,
  actor,
  detail,
  at,
});

describe('promotionApproval', () => {
  it('lists the approvals of the current head, oldest first, with who, when and as what', () => {
    const events = [
      event('requested', BOB),
      event('approved', CAROL, 'h1', '2026-12-01T09:00:00.000Z'),
      event('approval-voided', 'gate', 'moved'),
      event('approved', ALICE, HEAD, '2026-12-01T10:00:00.000Z'),
      event('incident-approved', DAVE, HEAD, '2026-12-01T10:05:00.000Z'),
    ];
    expect(promotionApproval({ headSha: HEAD, requestedBy: BOB }, events, 2, true)).toEqual({
      headSha: HEAD,
      approvals: [
        { approver: ALICE, at: '2026-12-01T10:00:00.000Z', role: 'release-approver' },
        { approver: DAVE, at: '2026-12-01T10:05:00.000Z', role: 'incident-commander' },
      ],
      quorum: 2,
      quorumApprovers: [ALICE],
      progress: '1 of 2',
      quorumMet: false,
      commanderNeeded: true,
    });
  });

  it.each([
    ['no approval yet', [], 1, '0 of 1', false],
    ['one of one', [event('approved', ALICE, HEAD)], 1, '1 of 1', true],
    ['one of two', [event('approved', ALICE, HEAD)], 2, '1 of 2', false],
    ['two of two', [event('approved', ALICE, HEAD), event('approved', CAROL, HEAD)], 2, '2 of 2', true],
    ['an earlier head does not count', [event('approved', ALICE, 'h1'), event('approved', CAROL, HEAD)], 2, '1 of 2', false],
    ["a commander's approval is not part of the quorum", [event('incident-approved', DAVE, HEAD)], 1, '0 of 1', false],
    ['the requester does not count', [event('approved', BOB, HEAD)], 1, '0 of 1', false],
  ])('%s → %s', (_case, events, needed, progress, met) => {
    const approval = promotionApproval({ headSha: HEAD, requestedBy: BOB }, events, needed, false);
    expect(approval).toMatchObject({ quorum: needed, progress, quorumMet: met });
  });
});

const approval = (overrides: Partial<PromotionApproval> = {}): PromotionApproval => ({
  headSha: HEAD,
  approvals: [{ approver: ALICE, at: '2026-12-01T10:00:00.000Z', role: 'release-approver' }],
  quorum: 2,
  quorumApprovers: [ALICE],
  progress: '1 of 2',
  quorumMet: false,
  commanderNeeded: false,
  ...overrides,
});
const commanderApproval = { approver: DAVE, at: '2026-12-01T10:05:00.000Z', role: 'incident-commander' as const };

describe('missingApprovals', () => {
  it.each<[string, PromotionApproval, string | undefined]>([
    ['one approver short', approval(), '1 more approver'],
    ['two approvers short', approval({ quorum: 3 }), '2 more approvers'],
    ['an approver and a commander short', approval({ commanderNeeded: true }), '1 more approver and an incident commander'],
    [
      'only the commander short',
      approval({ quorum: 1, progress: '1 of 1', quorumMet: true, commanderNeeded: true }),
      'an incident commander',
    ],
    [
      'the commander approved, an approver short',
      approval({ commanderNeeded: true, approvals: [...approval().approvals, commanderApproval] }),
      '1 more approver',
    ],
    ['complete', approval({ quorum: 1, progress: '1 of 1', quorumMet: true }), undefined],
  ])('%s → %p', (_case, given, missing) => {
    expect(missingApprovals(given)).toBe(missing);
  });
});

describe('ownPartBarsApproval', () => {
  it.each<[string, { requestedBy: string; approval?: PromotionApproval }, string, boolean, string | undefined]>([
    // case, promotion, viewer, requireDistinctApprover, reason
    ['an approver of someone else’s request, nothing approved yet', { requestedBy: BOB }, CAROL, true, undefined],
    [
      'the requester, approvers must differ',
      { requestedBy: ALICE },
      ALICE,
      true,
      'You requested this promotion: another release-approver must approve it',
    ],
    ['the requester, approvers need not differ', { requestedBy: ALICE }, ALICE, false, undefined],
    [
      'one who approved the head, the quorum not met',
      { requestedBy: BOB, approval: approval() },
      ALICE,
      true,
      'You approved this head already; waiting for 1 more approver',
    ],
    [
      'one who approved the head, a commander needed too',
      { requestedBy: BOB, approval: approval({ commanderNeeded: true }) },
      ALICE,
      true,
      'You approved this head already; waiting for 1 more approver and an incident commander',
    ],
    [
      'the commander who approved the head',
      { requestedBy: BOB, approval: approval({ commanderNeeded: true, approvals: [commanderApproval] }) },
      DAVE,
      true,
      'You approved this head already; waiting for 1 more approver',
    ],
    ['another approver of a partly approved head', { requestedBy: BOB, approval: approval() }, CAROL, true, undefined],
    [
      'one who approved an earlier head (the ladder lists only the current one)',
      { requestedBy: BOB, approval: approval({ approvals: [], quorumApprovers: [], progress: '0 of 2' }) },
      ALICE,
      true,
      undefined,
    ],
  ])('%s → %p', (_case, promotion, viewer, distinct, reason) => {
    expect(ownPartBarsApproval(promotion, viewer, distinct)).toBe(reason);
  });
});
