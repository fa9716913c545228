import { FleetMemberFacts, fleetMemberReading } from './fleetMemberReading';

const healthy: FleetMemberFacts = {
  id: 'p1',
  targetMoved: false,
  fileIsRequested: true,
  source: { state: 'success', description: 'dev is Synced, Healthy and running these digests' },
};

describe('fleetMemberReading', () => {
  it.each<[string, Partial<FleetMemberFacts>, ReturnType<typeof fleetMemberReading>]>([
    ['everything holds: ready', {}, { id: 'p1', state: 'ready' }],
    ['allowed by the guards: ready', { guards: { verdict: 'allow', reason: '' } }, { id: 'p1', state: 'ready' }],
    ['target moved: out', { targetMoved: true }, { id: 'p1', state: 'out', reason: 'its target Release changed on the base branch' }],
    ['file not the requested change: out', { fileIsRequested: false }, { id: 'p1', state: 'out', reason: 'its Release file in the PR is not the requested change' }],
    ['stage below failed: out with its words', { source: { state: 'failure', description: 'dev not ready: api: Degraded' } }, { id: 'p1', state: 'out', reason: 'dev not ready: api: Degraded' }],
    ['stage below getting there: pending', { source: { state: 'pending', description: 'dev not ready: api: Progressing' } }, { id: 'p1', state: 'pending', reason: 'dev not ready: api: Progressing' }],
    ['a guard blocks: out', { guards: { verdict: 'block', reason: 'freeze: code freeze' } }, { id: 'p1', state: 'out', reason: 'freeze: code freeze' }],
    [
      'a guard asks for an approver: out, as a fleet waits for none',
      { guards: { verdict: 'needs-approval', reason: 'incident: open incident' } },
      { id: 'p1', state: 'out', reason: 'incident: open incident; a fleet PR waits for no approval, so it goes on its own' },
    ],
    ['a block outranks pending health', { source: { state: 'pending', description: 'syncing' }, guards: { verdict: 'block', reason: 'freeze' } }, { id: 'p1', state: 'out', reason: 'freeze' }],
    ['a moved target outranks everything', { targetMoved: true, fileIsRequested: false, source: { state: 'failure', description: 'x' } }, { id: 'p1', state: 'out', reason: 'its target Release changed on the base branch' }],
  ])('%s', (_, facts, expected) => {
    expect(fleetMemberReading({ ...healthy, ...facts })).toEqual(expected);
  });
});
