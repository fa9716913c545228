import { ProductChange, decideProductChange } from './productChangeRules';

const APPROVERS = ['group:default/release-approvers'];
const BETA = ['group:default/beta'];
const bob = ['user:default/bob', 'group:default/alpha'];
const alice = ['user:default/alice', 'group:default/release-approvers'];
const betaDev = ['user:default/dana', 'group:default/beta'];

describe('decideProductChange', () => {
  it.each<[string, ProductChange, string[], string[], boolean, boolean, boolean]>([
    // who, change, claims, owners, at an approval stage, ownership required, allowed
    ['an owner requests', 'request-promotion', betaDev, BETA, false, true, true],
    ['an owner requests into prod (approval comes later)', 'request-promotion', betaDev, BETA, true, true, true],
    ['a non-owner requests', 'request-promotion', bob, BETA, false, true, false],
    ['a non-owner rolls back', 'request-rollback', bob, BETA, false, true, false],
    ['a non-owner holds', 'place-hold', bob, BETA, false, true, false],
    ['a non-owner lifts a hold', 'lift-hold', bob, BETA, false, true, false],
    ['an owner holds prod', 'place-hold', betaDev, BETA, true, true, true],
    ['an owner lifts a hold below prod', 'lift-hold', betaDev, BETA, false, true, true],
    ['an owner lifts a hold at prod', 'lift-hold', betaDev, BETA, true, true, false],
    ['an approver lifts a hold at prod', 'lift-hold', alice, BETA, true, true, true],
    ['an approver requests for any Product', 'request-promotion', alice, BETA, false, true, true],
    ['anyone, ownership widened', 'place-hold', bob, BETA, false, false, true],
    ['anyone lifts at prod, ownership widened', 'lift-hold', bob, BETA, true, false, false],
    ['a Product without owners, non-approver', 'request-promotion', betaDev, [], false, true, false],
    ['a Product without owners, approver', 'request-promotion', alice, [], false, true, true],
    ['a user who owns the System in person', 'request-rollback', ['user:default/dana'], ['user:default/dana'], false, true, true],
  ])('%s: %s → allowed %p', (_who, change, claims, owners, atApprovalStage, requireOwnership, allowed) => {
    const decision = decideProductChange({
      change,
      claims,
      owners,
      approvers: APPROVERS,
      atApprovalStage,
      requireOwnership,
    });
    expect(decision.allowed).toBe(allowed);
  });

  it.each([
    [BETA, /only the Product's owners \(group:default\/beta\) and release-approvers \(group:default\/release-approvers\) may place holds/],
    [[], /has no owner in the catalog.*only release-approvers/],
  ])('says who may instead (owners %p)', (owners, reason) => {
    const decision = decideProductChange({
      change: 'place-hold',
      claims: bob,
      owners,
      approvers: APPROVERS,
      atApprovalStage: false,
      requireOwnership: true,
    });
    expect(decision).toEqual({ allowed: false, reason: expect.stringMatching(reason) });
  });

  it('says that prod holds are lifted by release-approvers', () => {
    expect(
      decideProductChange({
        change: 'lift-hold',
        claims: betaDev,
        owners: BETA,
        approvers: APPROVERS,
        atApprovalStage: true,
        requireOwnership: true,
      }),
    ).toEqual({
      allowed: false,
      reason: 'lifting a hold at an approval stage needs a release-approver (group:default/release-approvers)',
    });
  });
});
