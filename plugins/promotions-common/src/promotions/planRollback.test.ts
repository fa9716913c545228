import { planRollback, RollbackKind, RollbackPlan, RollbackStage } from './planRollback';
import { StageHistoryEntry } from './types';

const [A, B, C, D, E] = ['a', 'b', 'c', 'd', 'e'].map(x => `sha256:${x.repeat(64)}`);

/** dev's cells: each Service's digest now, declared unless said otherwise. */
function dev(digests: Record<string, string | undefined>, undeclared: string[] = []): RollbackStage {
  return {
    name: 'dev',
    services: Object.fromEntries(
      Object.entries(digests).map(([service, digest]) => [
        service,
        { digest, declared: !undeclared.includes(service) },
      ]),
    ),
  };
}

/** The row that put the bad storefront C over A, after cart had gone B → D earlier. */
const badStorefront: Pick<StageHistoryEntry, 'services' | 'changes'> = {
  services: { storefront: C, cart: D },
  changes: [{ service: 'storefront', from: A, to: C }],
};
/** The row before it: cart B → D, storefront still A. */
const cartChange: Pick<StageHistoryEntry, 'services' | 'changes'> = {
  services: { storefront: A, cart: D },
  changes: [{ service: 'cart', from: B, to: D }],
};
/** The record's first commit: it added both. */
const firstCommit: Pick<StageHistoryEntry, 'services' | 'changes'> = {
  services: { storefront: A, cart: B },
  changes: [{ service: 'storefront', to: A }, { service: 'cart', to: B }],
};

describe('planRollback', () => {
  it.each<[string, RollbackKind, RollbackStage, Pick<StageHistoryEntry, 'services' | 'changes'>, RollbackPlan]>([
    [
      'revert the bad storefront: only storefront goes back, cart stays',
      'revert',
      dev({ storefront: C, cart: D }),
      badStorefront,
      { changes: [{ service: 'storefront', current: C, target: A }], skipped: [] },
    ],
    [
      'restore the state after the bad storefront: nothing to change, it is the current state',
      'restore',
      dev({ storefront: C, cart: D }),
      badStorefront,
      { changes: [], skipped: [] },
    ],
    [
      'restore the state before it (after the cart change): storefront goes back',
      'restore',
      dev({ storefront: C, cart: D }),
      cartChange,
      { changes: [{ service: 'storefront', current: C, target: A }], skipped: [] },
    ],
    [
      'revert an older change: undoes cart alone, keeping the newer storefront',
      'revert',
      dev({ storefront: C, cart: D }),
      cartChange,
      { changes: [{ service: 'cart', current: D, target: B }], skipped: [] },
    ],
    [
      'revert a change undone since: the stage already runs the replaced digest',
      'revert',
      dev({ storefront: A, cart: D }),
      badStorefront,
      { changes: [], skipped: [{ service: 'storefront', reason: 'dev already runs the digest this change replaced' }] },
    ],
    [
      'revert a change made over again since: from what runs now back to the replaced digest',
      'revert',
      dev({ storefront: E, cart: D }),
      badStorefront,
      { changes: [{ service: 'storefront', current: E, target: A }], skipped: [] },
    ],
    [
      'revert the first commit: every Service was added, none can be reverted',
      'revert',
      dev({ storefront: C, cart: D }),
      firstCommit,
      {
        changes: [],
        skipped: [
          { service: 'storefront', reason: 'added by this change: a rollback writes digests and cannot remove a Service' },
          { service: 'cart', reason: 'added by this change: a rollback writes digests and cannot remove a Service' },
        ],
      },
    ],
    [
      'restore the first commit: both back',
      'restore',
      dev({ storefront: C, cart: D }),
      firstCommit,
      { changes: [{ service: 'storefront', current: C, target: A }, { service: 'cart', current: D, target: B }], skipped: [] },
    ],
    [
      'revert a removal: writes the removed Service back',
      'revert',
      dev({ storefront: A, cart: undefined }),
      { services: { storefront: A }, changes: [{ service: 'cart', from: B }] },
      { changes: [{ service: 'cart', current: undefined, target: B }], skipped: [] },
    ],
    [
      'restore a state without a Service the stage runs now: says it stays',
      'restore',
      dev({ storefront: C, checkout: E }),
      { services: { storefront: A }, changes: [{ service: 'storefront', to: A }] },
      {
        changes: [{ service: 'storefront', current: C, target: A }],
        skipped: [{ service: 'checkout', reason: 'not in this state: a rollback writes digests and cannot remove a Service' }],
      },
    ],
    [
      "revert a Service dev's Environment no longer declares",
      'revert',
      dev({ storefront: C, cart: D }, ['storefront']),
      badStorefront,
      { changes: [], skipped: [{ service: 'storefront', reason: "dev's Environment no longer declares it" }] },
    ],
    [
      "restore skips an undeclared Service and a Service missing from the ladder alike",
      'restore',
      dev({ storefront: C }, ['storefront']),
      cartChange,
      {
        changes: [],
        skipped: [
          { service: 'storefront', reason: "dev's Environment no longer declares it" },
          { service: 'cart', reason: "dev's Environment no longer declares it" },
        ],
      },
    ],
  ])('%s', (_name, kind, stage, entry, expected) => {
    expect(planRollback(kind, stage, entry)).toEqual(expected);
  });
});
