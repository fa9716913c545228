import { ProductChange, ProductChangeQuestion, decideProductChange } from './productChange';

const APPROVERS = ['group:default/release-approvers'];
const ALPHA = ['group:default/alpha'];
const bob = ['user:default/bob', 'group:default/alpha'];
const alice = ['user:default/alice', 'group:default/release-approvers'];
const dana = ['user:default/dana', 'group:default/beta'];

const ask = (
  claims: string[],
  change: ProductChange,
  overrides: Partial<ProductChangeQuestion> = {},
): ProductChangeQuestion => ({
  change,
  claims,
  owners: ALPHA,
  approvers: APPROVERS,
  atApprovalStage: false,
  requireOwnership: true,
  ...overrides,
});

describe('decideProductChange', () => {
  it.each<[string, ProductChangeQuestion, ReturnType<typeof decideProductChange>]>([
    ['an owner requests a promotion', ask(bob, 'request-promotion'), { allowed: true }],
    ['an owner freezes prod', ask(bob, 'place-hold', { atApprovalStage: true }), { allowed: true }],
    ['an owner resumes test', ask(bob, 'lift-hold'), { allowed: true }],
    ['a release-approver changes a Product they do not own', ask(alice, 'request-rollback'), { allowed: true }],
    ['a release-approver resumes prod', ask(alice, 'lift-hold', { atApprovalStage: true }), { allowed: true }],
    ['a release-approver, whatever the catalog says', ask(alice, 'request-promotion', { owners: undefined }), { allowed: true }],
    ['without the ownership rule, anyone', ask(dana, 'place-hold', { requireOwnership: false }), { allowed: true }],
    [
      'without the ownership rule, anyone, even when the catalog cannot say',
      ask(dana, 'request-promotion', { requireOwnership: false, owners: undefined }),
      { allowed: true },
    ],
    [
      'someone else',
      ask(dana, 'request-promotion'),
      { allowed: false, refusal: { rule: 'not-an-owner', owners: ALPHA } },
    ],
    [
      'an owner resumes prod',
      ask(bob, 'lift-hold', { atApprovalStage: true }),
      { allowed: false, refusal: { rule: 'approval-stage-hold' } },
    ],
    [
      'an owner resumes prod, even without the ownership rule',
      ask(bob, 'lift-hold', { atApprovalStage: true, requireOwnership: false }),
      { allowed: false, refusal: { rule: 'approval-stage-hold' } },
    ],
    ['a Product without an owner', ask(bob, 'request-rollback', { owners: [] }), { allowed: false, refusal: { rule: 'no-owner' } }],
    [
      'owners the catalog could not give: refused, not guessed (the frontend once allowed what the backend refused)',
      ask(bob, 'request-promotion', { owners: undefined }),
      { allowed: false, refusal: { rule: 'owners-unknown' } },
    ],
  ])('%s', (_case, question, expected) => {
    expect(decideProductChange(question)).toEqual(expected);
  });

  const BETA = ['group:default/beta'];
  const betaDev = ['user:default/dana', 'group:default/beta'];
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
    const decision = decideProductChange({ change, claims, owners, approvers: APPROVERS, atApprovalStage, requireOwnership });
    expect(decision.allowed).toBe(allowed);
  });
});
