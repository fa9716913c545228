import { ProductViewer, approveAccess, changeAccess } from './productChangeAccess';

const APPROVERS = ['group:default/release-approvers'];

function viewer(claims: string[], overrides: Partial<ProductViewer> = {}): ProductViewer {
  return {
    userEntityRef: claims[0],
    claims,
    owners: ['group:default/alpha'],
    approvers: APPROVERS,
    requireOwnership: true,
    requireDistinctApprover: true,
    ...overrides,
  };
}

const bob = ['user:default/bob', 'group:default/alpha'];
const alice = ['user:default/alice', 'group:default/release-approvers'];
const dana = ['user:default/dana', 'group:default/beta'];

describe('changeAccess', () => {
  it.each([
    ['an owner requests a promotion', viewer(bob), 'request-promotion', false],
    ['an owner freezes prod', viewer(bob), 'place-hold', true],
    ['an owner resumes test', viewer(bob), 'lift-hold', false],
    ['a release-approver changes a Product they do not own', viewer(alice), 'request-rollback', false],
    ['a release-approver resumes prod', viewer(alice), 'lift-hold', true],
    ['without the ownership rule anyone may', viewer(dana, { requireOwnership: false }), 'place-hold', false],
  ] as const)('allows: %s', (_case, who, change, atApprovalStage) => {
    expect(changeAccess(who, change, atApprovalStage)).toEqual({ allowed: true });
  });

  it.each([
    [
      'someone else requests a promotion',
      viewer(dana),
      'request-promotion',
      false,
      "Only the Product's owners (alpha) and release-approvers (release-approvers) may request promotions",
    ],
    [
      'someone else freezes',
      viewer(dana),
      'place-hold',
      false,
      "Only the Product's owners (alpha) and release-approvers (release-approvers) may freeze services",
    ],
    [
      'an owner resumes prod',
      viewer(bob),
      'lift-hold',
      true,
      'Only release-approvers (release-approvers) may resume a service here',
    ],
    [
      'even without the ownership rule, an owner resumes prod',
      viewer(bob, { requireOwnership: false }),
      'lift-hold',
      true,
      'Only release-approvers (release-approvers) may resume a service here',
    ],
    [
      'a Product without an owner',
      viewer(bob, { owners: [] }),
      'request-rollback',
      false,
      'The Product has no owner in the catalog: only release-approvers (release-approvers) may request rollbacks',
    ],
    [
      'owners the catalog could not give: refused, as the backend refuses',
      viewer(dana, { owners: undefined }),
      'request-promotion',
      false,
      'The catalog could not say who owns the Product: only release-approvers (release-approvers) may request promotions until it can',
    ],
  ] as const)('refuses, saying why: %s', (_case, who, change, atApprovalStage, reason) => {
    expect(changeAccess(who, change, atApprovalStage)).toEqual({ allowed: false, reason });
  });
});

describe('approveAccess', () => {
  it('lets a release-approver approve what someone else requested', () => {
    expect(approveAccess(viewer(alice), { requestedBy: 'user:default/bob' })).toEqual({ allowed: true });
  });

  it('never lets the requester approve their own promotion', () => {
    expect(approveAccess(viewer(alice), { requestedBy: 'user:default/alice' })).toEqual({
      allowed: false,
      reason: 'You requested this promotion: another release-approver must approve it',
      ownPart: true,
    });
  });

  it('lets the requester approve where distinct approvers are not required', () => {
    expect(
      approveAccess(viewer(alice, { requireDistinctApprover: false }), { requestedBy: 'user:default/alice' }),
    ).toEqual({ allowed: true });
  });

  it('tells a requester who may not approve who it waits for, not that "another" approver must (issue 45)', () => {
    expect(approveAccess(viewer(bob), { requestedBy: 'user:default/bob' })).toEqual({
      allowed: false,
      reason: 'Awaiting approval by members of release-approvers',
    });
  });

  it('tells everyone else who it waits for', () => {
    expect(approveAccess(viewer(bob), { requestedBy: 'user:default/carol' })).toEqual({
      allowed: false,
      reason: 'Awaiting approval by members of release-approvers',
    });
    expect(approveAccess(viewer(bob, { approvers: [] }), { requestedBy: 'user:default/carol' })).toEqual({
      allowed: false,
      reason: 'Awaiting approval by a release-approver',
    });
  });
});

describe('approveAccess after approvals of the head', () => {
  const partlyApproved = (approver: string, commanderNeeded = false) => ({
    requestedBy: 'user:default/bob',
    approval: {
      headSha: 'h2',
      approvals: [{ approver, at: '2026-12-01T10:00:00.000Z', role: 'release-approver' as const }],
      quorum: 2,
      quorumApprovers: [approver],
      progress: '1 of 2',
      quorumMet: false,
      commanderNeeded,
    },
  });

  it.each([
    ['the quorum', false, 'You approved this head already; waiting for 1 more approver'],
    ['the quorum and a commander', true, 'You approved this head already; waiting for 1 more approver and an incident commander'],
  ])('tells one who approved it that it waits for %s', (_case, commanderNeeded, reason) => {
    expect(approveAccess(viewer(alice), partlyApproved('user:default/alice', commanderNeeded))).toEqual({
      allowed: false,
      reason,
      ownPart: true,
    });
  });

  it('lets another release-approver add theirs', () => {
    const carol = ['user:default/carol', 'group:default/release-approvers'];
    expect(approveAccess(viewer(carol), partlyApproved('user:default/alice'))).toEqual({ allowed: true });
  });
});

describe('approveAccess while an incident asks for a commander', () => {
  const COMMANDERS = ['group:default/incident-commanders'];
  const dave = ['user:default/dave', 'group:default/incident-commanders'];

  it('lets an incident commander approve as well as a release-approver', () => {
    expect(approveAccess(viewer(dave), { requestedBy: 'user:default/bob' }, COMMANDERS)).toEqual({ allowed: true });
    expect(approveAccess(viewer(alice), { requestedBy: 'user:default/bob' }, COMMANDERS)).toEqual({ allowed: true });
  });

  it('names both groups to everyone else', () => {
    expect(approveAccess(viewer(bob), { requestedBy: 'user:default/carol' }, COMMANDERS)).toEqual({
      allowed: false,
      reason: 'Awaiting approval by members of release-approvers and an incident commander (incident-commanders)',
    });
  });

  it('lets no commander approve without an incident asking for one', () => {
    expect(approveAccess(viewer(dave), { requestedBy: 'user:default/bob' }).allowed).toBe(false);
  });
});
