import { PromotionEvent, PromotionStatus } from '../promotions/types';
import { AwaitedApproval, awaitedApprovalsFor } from './inbox';
import { promotionApproval } from './promotionApproval';

const ALICE = 'user:default/alice';
const BOB = 'user:default/bob';
const CAROL = 'user:default/carol';
const DAVE = 'user:default/dave';
const HEAD = 'h2';

type Trail = Pick<PromotionEvent, 'type' | 'actor' | 'at' | 'detail'>[];
const AT = '2026-11-30T10:00:00Z';
const approved = (actor: string, detail = HEAD): Trail[number] => ({ type: 'approved', actor, at: AT, detail });
const byCommander = (actor: string, detail = HEAD): Trail[number] => ({ type: 'incident-approved', actor, at: AT, detail });

interface Case {
  status?: PromotionStatus;
  requestedBy?: string;
  trail?: Trail;
  /** Alice's roles; she is a release-approver unless told. */
  isApprover?: boolean;
  isCommander?: boolean;
  quorum?: number;
  commanderNeeded?: boolean;
  distinct?: boolean;
}

describe('awaitedApprovalsFor (alice asks her inbox)', () => {
  it.each<[string, Case, AwaitedApproval[] | undefined]>([
    ["an approver, someone else's request", {}, ['approvers']],
    ['a non-approver', { isApprover: false }, undefined],
    ['an approver, own request, distinct approver required', { requestedBy: ALICE }, undefined],
    ['an approver, own request, distinct approver not required', { requestedBy: ALICE, distinct: false }, ['approvers']],
    ['already approved', { status: 'approved' }, undefined],
    ['into a stage without approval', { status: 'open' }, undefined],
    ['merged', { status: 'merged' }, undefined],
    ['partly approved by alice: it waits for someone else', { quorum: 2, trail: [approved(ALICE)] }, undefined],
    ['alice approved an earlier head: it waits for her again', { trail: [approved(ALICE, 'h1')] }, ['approvers']],
    ['one of two approvals given by carol', { quorum: 2, trail: [approved(CAROL)] }, ['approvers']],
    // The incident gate in approval mode.
    ['an approver, a commander needed as well', { commanderNeeded: true }, ['approvers', 'incident-commander']],
    ['an approver, the quorum met, only a commander missing', { commanderNeeded: true, trail: [approved(CAROL)] }, undefined],
    ['a commander only, nobody approved yet', { isApprover: false, isCommander: true, commanderNeeded: true }, ['approvers', 'incident-commander']],
    [
      'a commander only, the quorum met',
      { isApprover: false, isCommander: true, commanderNeeded: true, trail: [approved(CAROL)] },
      ['incident-commander'],
    ],
    [
      'a commander only, dave approved as commander',
      { isApprover: false, isCommander: true, commanderNeeded: true, trail: [approved(CAROL), byCommander(DAVE)] },
      undefined,
    ],
    [
      'a commander only, dave approved an earlier head',
      { isApprover: false, isCommander: true, commanderNeeded: true, trail: [approved(CAROL), byCommander(DAVE, 'h1')] },
      ['incident-commander'],
    ],
    ['a commander only, no incident asks for one', { isApprover: false, isCommander: true }, undefined],
    ['a commander only, alice approved as commander', { isApprover: false, isCommander: true, commanderNeeded: true, trail: [byCommander(ALICE)] }, undefined],
    ['a commander only, her own request', { isApprover: false, isCommander: true, commanderNeeded: true, requestedBy: ALICE }, undefined],
    [
      'both: the commander approved, the quorum short',
      { isCommander: true, commanderNeeded: true, trail: [byCommander(DAVE)] },
      ['approvers'],
    ],
    ['both: she fills the commander’s place first', { isCommander: true, commanderNeeded: true, trail: [approved(CAROL)] }, ['incident-commander']],
  ])('%s → %p', (_name, given, awaiting) => {
    const requestedBy = given.requestedBy ?? BOB;
    const approval = promotionApproval(
      { headSha: HEAD, requestedBy },
      given.trail ?? [],
      given.quorum ?? 1,
      given.commanderNeeded ?? false,
    );
    expect(
      awaitedApprovalsFor(
        { status: given.status ?? 'awaiting-approval', requestedBy, approval },
        { userEntityRef: ALICE, isApprover: given.isApprover ?? true, isCommander: given.isCommander ?? false },
        given.distinct ?? true,
      ),
    ).toEqual(awaiting);
  });
});
