import {
  GlobalApprovalPolicy,
  isApprover,
  parseApprovalQuorumAnnotation,
  parseApproversAnnotation,
  productApprovalPolicy,
  quorumNeeded,
  recordedApprovals,
} from './approvalPolicy';

const RELEASE = 'group:default/release-approvers';
const PAYMENTS = 'group:default/payments-release';

describe('parseApproversAnnotation', () => {
  it.each<[string, string | undefined, string[], RegExp[]]>([
    ['absent', undefined, [], []],
    ['empty', ' , ', [], []],
    ['one full ref', 'group:default/payments-release', [PAYMENTS], []],
    ['a bare name is a Group in default', 'payments-release', [PAYMENTS], []],
    ['another namespace', 'group:finance/payments-release', ['group:finance/payments-release'], []],
    ['a list, spaces, a repeat', ' payments-release , group:default/ops,payments-release', [PAYMENTS, 'group:default/ops'], []],
    ['the kind in capitals', 'Group:default/payments-release', [PAYMENTS], []],
    ['a User is not a Group', 'user:default/alice, payments-release', [PAYMENTS], [/'user:default\/alice' is not a Group; ignored/]],
    ['not a ref', 'group:default/', [], [/'group:default\/' is not an entity ref/]],
  ])('%s', (_case, value, approvers, problems) => {
    const parsed = parseApproversAnnotation(value);
    expect(parsed.approvers).toEqual(approvers);
    expect(parsed.problems).toHaveLength(problems.length);
    problems.forEach((problem, i) => expect(parsed.problems[i]).toMatch(problem));
  });
});

describe('parseApprovalQuorumAnnotation', () => {
  const STAGES = ['staging', 'prod'];
  it.each<[string, string | undefined, Record<string, number>, RegExp[]]>([
    ['absent', undefined, {}, []],
    ['one stage', 'prod=2', { prod: 2 }, []],
    ['two stages, spaces', ' staging = 1 , prod=3 ', { staging: 1, prod: 3 }, []],
    ['not an approval stage', 'dev=2,prod=2', { prod: 2 }, [/'dev' is not an approval stage \(staging, prod\); ignored/]],
    ['zero', 'prod=0', {}, [/prod=0 is not a whole number of at least 1; ignored/]],
    ['negative', 'prod=-1', {}, [/prod=-1 is not a whole number/]],
    ['a fraction', 'prod=1.5', {}, [/prod=1.5 is not a whole number/]],
    ['a word', 'prod=two', {}, [/prod=two is not a whole number/]],
    ['no number', 'prod', {}, [/'prod' is not stage=N; ignored/]],
    ['no stage', '=2', {}, [/'=2' is not stage=N/]],
    ['a stage twice', 'prod=2,prod=1', { prod: 2 }, [/prod is given twice; the first, 2, applies/]],
  ])('%s', (_case, value, quorum, problems) => {
    const parsed = parseApprovalQuorumAnnotation(value, STAGES);
    expect(parsed.quorum).toEqual(quorum);
    expect(parsed.problems).toHaveLength(problems.length);
    problems.forEach((problem, i) => expect(parsed.problems[i]).toMatch(problem));
  });
});

describe('productApprovalPolicy', () => {
  const global = (productApprovers: 'add' | 'replace'): GlobalApprovalPolicy => ({
    approvers: [RELEASE],
    quorum: { prod: 1 },
    stages: ['prod'],
    productApprovers,
  });
  it.each<[string, 'add' | 'replace', Record<string, string> | undefined, string[], Record<string, number>, number]>([
    ['no System', 'add', undefined, [RELEASE], { prod: 1 }, 0],
    ['no annotations', 'replace', {}, [RELEASE], { prod: 1 }, 0],
    ['own approvers, add', 'add', { 'refplat.org/approvers': PAYMENTS }, [RELEASE, PAYMENTS], { prod: 1 }, 0],
    ['own approvers, replace', 'replace', { 'refplat.org/approvers': PAYMENTS }, [PAYMENTS], { prod: 1 }, 0],
    ['the global group named again, add', 'add', { 'refplat.org/approvers': `${RELEASE},${PAYMENTS}` }, [RELEASE, PAYMENTS], { prod: 1 }, 0],
    ['only bad approvers, replace: the global ones stay', 'replace', { 'refplat.org/approvers': 'user:default/bob' }, [RELEASE], { prod: 1 }, 1],
    ['own quorum', 'add', { 'refplat.org/approval-quorum': 'prod=2' }, [RELEASE], { prod: 2 }, 0],
    ['a bad quorum keeps the global one', 'add', { 'refplat.org/approval-quorum': 'prod=0' }, [RELEASE], { prod: 1 }, 1],
  ])('%s', (_case, mode, annotations, approvers, quorum, problems) => {
    const policy = productApprovalPolicy(global(mode), annotations);
    expect(policy.approvers).toEqual(approvers);
    expect(policy.quorum).toEqual(quorum);
    expect(policy.problems).toHaveLength(problems);
  });
});

describe('isApprover and quorumNeeded', () => {
  const policy = { approvers: [PAYMENTS], quorum: { prod: 2 } };
  it.each<[string, string[], boolean]>([
    ['a member', ['user:default/dave', PAYMENTS], true],
    ['a member, the ref in other case', ['group:default/Payments-Release'], true],
    ['a member of another group', ['user:default/alice', RELEASE], false],
    ['no claims', [], false],
  ])('%s', (_case, claims, expected) => {
    expect(isApprover(claims, policy)).toBe(expected);
  });
  it('needs the stage quorum, or 1', () => {
    expect(quorumNeeded(policy, 'prod')).toBe(2);
    expect(quorumNeeded(policy, 'staging')).toBe(1);
  });
});

describe('recordedApprovals', () => {
  it('takes the approved events with the head they approved', () => {
    expect(
      recordedApprovals([
        { type: 'requested', actor: 'user:default/bob' },
        { type: 'approved', actor: 'user:default/alice', detail: 'h1' },
        { type: 'approval-voided', actor: 'gate', detail: 'moved' },
        { type: 'approved', actor: 'user:default/carol', detail: 'h2' },
      ]),
    ).toEqual([
      { approver: 'user:default/alice', sha: 'h1' },
      { approver: 'user:default/carol', sha: 'h2' },
    ]);
  });
});
