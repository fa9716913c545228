import {
  IncidentPolicy,
  OpenIncident,
  approvalComplete,
  approvalRole,
  incidentVerdict,
  stageIncidentGate,
} from './incidents';

const inc1: OpenIncident = { id: 'INC-1', url: 'https://status.example/INC-1', openedAt: '2026-12-01T10:00:00.000Z' };
const inc2: OpenIncident = { id: 'INC-2', url: 'https://status.example/INC-2', openedAt: '2026-12-01T11:00:00.000Z' };
const block: IncidentPolicy = { stages: ['prod'], mode: 'block', commanders: ['group:default/incident-commanders'] };
const approval: IncidentPolicy = { ...block, mode: 'approval' };

describe('incidentVerdict', () => {
  it.each([
    ['no incident', block, [], 'prod', undefined, 'allow', 'No open incident'],
    ['a stage the policy leaves open', block, [inc1], 'staging', undefined, 'allow', 'staging is not closed by incidents'],
    ['block mode', block, [inc1], 'prod', undefined, 'block', 'prod is closed while incident INC-1 (https://status.example/INC-1) is open'],
    ['block mode ignores a commander', block, [inc1], 'prod', 'user:default/dave', 'block', 'prod is closed while incident INC-1 (https://status.example/INC-1) is open'],
    [
      'two incidents',
      block,
      [inc1, inc2],
      'prod',
      undefined,
      'block',
      'prod is closed while incidents INC-1 (https://status.example/INC-1), INC-2 (https://status.example/INC-2) are open',
    ],
    [
      'approval mode without a commander',
      approval,
      [inc1],
      'prod',
      undefined,
      'needs-approval',
      'incident INC-1 (https://status.example/INC-1) is open: prod needs an approval from an incident commander (incident-commanders) as well',
    ],
    [
      'approval mode after a commander approved',
      approval,
      [inc1],
      'prod',
      'user:default/dave',
      'allow',
      'Approved by incident commander dave while incident INC-1 (https://status.example/INC-1) is open',
    ],
    ['approval mode, no incident', approval, [], 'prod', undefined, 'allow', 'No open incident'],
  ] as const)('%s', (_case, policy, incidents, stage, commander, verdict, reason) => {
    expect(incidentVerdict(policy, [...incidents], stage, commander)).toEqual({ verdict, reason });
  });

  it('names the commander and the commanders as the catalog does', () => {
    const nameOf = (actor: string) => (actor === 'user:default/dave' ? 'Dave Dispatcher' : 'Incident commanders');
    expect(incidentVerdict(approval, [inc1], 'prod', 'user:default/dave', nameOf).reason).toBe(
      'Approved by incident commander Dave Dispatcher while incident INC-1 (https://status.example/INC-1) is open',
    );
    expect(incidentVerdict(approval, [inc1], 'prod', undefined, nameOf).reason).toMatch(
      /needs an approval from an incident commander \(Incident commanders\) as well$/,
    );
  });
});

describe('stageIncidentGate', () => {
  it.each([
    [[], 'prod', undefined],
    [[inc1], 'staging', undefined],
    [[inc1], 'prod', { mode: 'block', commanders: block.commanders, incidents: [inc1] }],
  ] as const)('%j into %s', (incidents, stage, gate) => {
    expect(stageIncidentGate(block, [...incidents], stage)).toEqual(gate);
  });
});

describe('approvalRole', () => {
  it.each([
    // commanderNeeded, commanderApproved, isCommander, isReleaseApprover → role
    [false, false, false, true, 'release-approver'],
    [false, false, true, false, undefined],
    [false, false, true, true, 'release-approver'],
    [true, false, true, false, 'incident-commander'],
    [true, false, true, true, 'incident-commander'],
    [true, false, false, true, 'release-approver'],
    [true, true, true, false, undefined],
    [true, true, true, true, 'release-approver'],
    [true, false, false, false, undefined],
  ])('needed %s, given %s, commander %s, approver %s → %s', (commanderNeeded, commanderApproved, isCommander, isReleaseApprover, role) => {
    expect(approvalRole({ commanderNeeded, commanderApproved, isCommander, isReleaseApprover })).toBe(role);
  });
});

describe('approvalComplete', () => {
  it.each([
    [true, false, false, true],
    [false, false, false, false],
    [true, true, false, false],
    [true, true, true, true],
    [false, true, true, false],
  ])('quorum %s, commander needed %s, given %s → %s', (quorumMet, needed, given, complete) => {
    expect(approvalComplete(quorumMet, needed, given)).toBe(complete);
  });
});
