import { FleetCandidate, FleetConfig, fleetBatch } from './fleetBatch';

const AUTO = 'plugin:promotions/auto-promoter';
const on: FleetConfig = { enabled: true, maxProducts: 3, groupBy: 'none' };

function queued(id: string, overrides: Partial<FleetCandidate> = {}): FleetCandidate {
  return { id, team: 'alpha', product: id, fromStage: 'dev', toStage: 'test', requestedBy: AUTO, requiresApproval: false, ...overrides };
}

describe('fleetBatch', () => {
  const ids = (batch: FleetCandidate[]) => batch.map(candidate => candidate.id);

  it.each([
    ['fleet mode off: the queue head alone', { ...on, enabled: false }, [queued('a'), queued('b')], ['a']],
    ['same rung: up to maxProducts, in queue order', on, [queued('a'), queued('b'), queued('c'), queued('d')], ['a', 'b', 'c']],
    ['maxProducts 1 batches nothing', { ...on, maxProducts: 1 }, [queued('a'), queued('b')], ['a']],
    ['another rung stays out', on, [queued('a'), queued('b', { fromStage: 'test', toStage: 'uat' }), queued('c')], ['a', 'c']],
    ['a person’s request stays out', on, [queued('a'), queued('b', { requestedBy: 'user:default/alice' }), queued('c')], ['a', 'c']],
    ['a rollback stays out', on, [queued('a'), queued('b', { kind: 'rollback' })], ['a']],
    ['a stage that needs an approver stays out', on, [queued('a'), queued('b', { requiresApproval: true })], ['a']],
    ['one promotion per Product', on, [queued('a'), queued('a2', { product: 'a' }), queued('b')], ['a', 'b']],
    ['groupBy team: the head’s team only', { ...on, groupBy: 'team' as const }, [queued('a'), queued('b', { team: 'beta' }), queued('c')], ['a', 'c']],
    ['groupBy none: any team', on, [queued('a'), queued('b', { team: 'beta' })], ['a', 'b']],
  ])('%s', (_, config, queue, expected) => {
    expect(ids(fleetBatch(queue[0], queue, { config, autoPromoter: AUTO }))).toEqual(expected);
  });

  it('never batches a head that may not share a PR, however many could', () => {
    const head = queued('p', { requestedBy: 'user:default/alice' });
    expect(ids(fleetBatch(head, [head, queued('a'), queued('b')], { config: on, autoPromoter: AUTO }))).toEqual(['p']);
  });
});
