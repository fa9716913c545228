import { NamedGuardVerdict } from './types';
import { decideGuards, guardCommitStatus, guardsReason } from './verdicts';

const allow: NamedGuardVerdict = { guard: 'a', verdict: 'allow', reason: 'fine' };
const block: NamedGuardVerdict = { guard: 'freeze', verdict: 'block', reason: 'frozen' };
const approve: NamedGuardVerdict = { guard: 'quorum', verdict: 'needs-approval', reason: '1 of 2' };
const override = { by: 'user:default/alice', reason: 'hotfix' };
const unliftable: NamedGuardVerdict = { guard: 'provenance', verdict: 'block', reason: 'cart is not signed', overridable: false };

describe('decideGuards', () => {
  it.each([
    ['no guards', [], undefined, 'allow', ''],
    ['all allow', [allow], undefined, 'allow', ''],
    ['a block blocks', [allow, block, approve], undefined, 'block', 'freeze: frozen'],
    ['an override lifts a block', [allow, block], override, 'allow', ''],
    ['an override does not lift a needed approval', [block, approve], override, 'needs-approval', 'quorum: 1 of 2'],
    ['needs approval', [allow, approve], undefined, 'needs-approval', 'quorum: 1 of 2'],
    ['an override does not lift a block its guard keeps', [block, unliftable], override, 'block', 'provenance: cart is not signed'],
    ['without an override, every block is named', [block, unliftable], undefined, 'block', 'freeze: frozen; provenance: cart is not signed'],
  ])('%s', (_case, verdicts, given, expected, reason) => {
    const decision = decideGuards(verdicts as NamedGuardVerdict[], given);
    expect(decision.verdict).toBe(expected);
    expect(guardsReason(decision)).toBe(reason);
  });
});

describe('guardCommitStatus', () => {
  it.each([
    [allow, undefined, { state: 'success', description: 'fine' }],
    [approve, undefined, { state: 'pending', description: '1 of 2' }],
    [block, undefined, { state: 'failure', description: 'frozen' }],
    [block, override, { state: 'success', description: 'Overridden by user:default/alice: hotfix' }],
    [unliftable, override, { state: 'failure', description: 'cart is not signed' }],
  ])('%j with override %j', (verdict, given, status) => {
    expect(guardCommitStatus(verdict, given)).toEqual(status);
  });
});
