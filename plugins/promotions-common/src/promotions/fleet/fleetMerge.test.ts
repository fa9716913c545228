import { FleetMemberReading, decideFleetMerge } from './fleetMerge';

const ready = (id: string): FleetMemberReading => ({ id, state: 'ready' });
const pending = (id: string): FleetMemberReading => ({ id, state: 'pending', reason: `${id} progressing` });
const out = (id: string): FleetMemberReading => ({ id, state: 'out', reason: `${id} unhealthy` });

describe('decideFleetMerge', () => {
  it.each([
    ['all ready: merge', [ready('a'), ready('b')], { action: 'merge' }],
    ['one out: take it out, the ready stay', [ready('a'), out('b')], { action: 'take-out', members: [{ id: 'b', reason: 'b unhealthy' }] }],
    ['all out: take all out', [out('a'), out('b')], { action: 'take-out', members: [{ id: 'a', reason: 'a unhealthy' }, { id: 'b', reason: 'b unhealthy' }] }],
    ['all pending: wait', [pending('a'), pending('b')], { action: 'wait', reason: 'a progressing; b progressing' }],
    ['pending and out, none ready: take out the out, the pending wait', [pending('a'), out('b')], { action: 'take-out', members: [{ id: 'b', reason: 'b unhealthy' }] }],
    [
      'pending beside ready: the pending is taken out so it holds nobody',
      [ready('a'), pending('b')],
      { action: 'take-out', members: [{ id: 'b', reason: 'not ready while the others were (b progressing); the auto-promoter offers it again' }] },
    ],
    ['nobody left: wait (nothing to merge)', [], { action: 'wait', reason: 'no Product is left in it' }],
  ])('%s', (_, readings, expected) => {
    expect(decideFleetMerge(readings as FleetMemberReading[])).toEqual(expected);
  });

  it('never merges while any Product in it is not ready', () => {
    const states = ['ready', 'pending', 'out'] as const;
    for (const a of states) {
      for (const b of states) {
        for (const c of states) {
          const readings = [a, b, c].map((state, i) =>
            state === 'ready' ? ready(`m${i}`) : state === 'pending' ? pending(`m${i}`) : out(`m${i}`),
          );
          const decision = decideFleetMerge(readings);
          expect(decision.action === 'merge').toBe(a === 'ready' && b === 'ready' && c === 'ready');
        }
      }
    }
  });
});
