import { givesTheEventLoopATurn } from '../__testUtils__/eventLoopTurn';
import { mockLogger } from '../__testUtils__/lightServices';
import { NotFoundError } from '@backstage/errors';
import type { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { OverviewModel } from './OverviewModel';

const ref = (name: string): ProductRef => {
  const [team, product] = name.split('/');
  return { team, product };
};

/** A ladder whose only stage's verdict tells which build made it. */
const ladderOf = (product: ProductRef, verdict: Ladder['stages'][number]['verdict']): Ladder =>
  ({
    ...product,
    services: [],
    stages: [{ name: 'dev', verdict, services: {}, reasons: [] }],
    promotions: [],
    revision: 'head',
    generatedAt: '',
  }) as unknown as Ladder;

describe('OverviewModel', () => {
  let clock: number;
  let products: string[];
  let verdict: Ladder['stages'][number]['verdict'];
  let failing: Set<string>;
  let builds: string[];
  let model: OverviewModel;

  beforeEach(() => {
    clock = 0;
    products = ['alpha/shop', 'beta/pay'];
    verdict = 'healthy';
    failing = new Set();
    builds = [];
    const ladder = async (product: ProductRef) => {
      const name = `${product.team}/${product.product}`;
      builds.push(name);
      if (!products.includes(name)) throw new NotFoundError(name);
      if (failing.has(name)) throw new Error('ArgoCD timed out');
      return ladderOf(product, verdict);
    };
    model = new OverviewModel({
      products: async () => products.map(ref),
      ladder,
      sweepLadders: async () => ladder,
      owners: async product => [`group:default/${product.team}`],
      refreshMs: 30_000,
      maxStaleMs: 120_000,
      logger: mockLogger(),
      now: () => clock,
    });
  });

  const verdicts = async () =>
    Object.fromEntries((await model.current()).map(entry => [entry.row.product, entry.row.cells[0].verdict]));

  it('lets the event loop answer I/O between the Products of a sweep', async () => {
    expect(await givesTheEventLoopATurn(() => model.current())).toBe(true);
  });

  it('waits for the first sweep, then answers from it without building again', async () => {
    expect(await verdicts()).toEqual({ 'alpha/shop': 'healthy', 'beta/pay': 'healthy' });
    expect((await model.current())[0].row.owners).toEqual(['group:default/alpha']);
    builds = [];
    verdict = 'progressing';
    expect(await verdicts()).toEqual({ 'alpha/shop': 'healthy', 'beta/pay': 'healthy' });
    expect(builds).toEqual([]);
  });

  it('rebuilds a changed Product before answering', async () => {
    await model.current();
    builds = [];
    verdict = 'progressing';
    model.productChanged(ref('beta/pay'));
    expect(await verdicts()).toEqual({ 'alpha/shop': 'healthy', 'beta/pay': 'progressing' });
    expect(builds).toEqual(['beta/pay']);
  });

  it('drops a changed Product that no longer exists', async () => {
    await model.current();
    products = ['alpha/shop'];
    model.productChanged(ref('beta/pay'));
    expect(Object.keys(await verdicts())).toEqual(['alpha/shop']);
  });

  it('sweeps again in the background after the refresh interval, keeping the last row of a Product that fails', async () => {
    await model.current();
    clock = 30_000;
    verdict = 'progressing';
    failing.add('alpha/shop');
    products = ['alpha/shop', 'beta/pay', 'gamma/new'];
    // this view answers from the last sweep; the next one sees the new sweep's rows
    expect(Object.keys(await verdicts())).toEqual(['alpha/shop', 'beta/pay']);
    const swept = async () => {
      for (let turns = 0; turns < 100; turns++) {
        const seen = await verdicts();
        if (seen['gamma/new']) return seen;
        await new Promise(setImmediate);
      }
      return undefined;
    };
    expect(await swept()).toEqual({ 'alpha/shop': 'healthy', 'beta/pay': 'progressing', 'gamma/new': 'progressing' });
  });

  it('waits for a sweep when the rows are too old to show', async () => {
    await model.current();
    clock = 120_000;
    verdict = 'progressing';
    expect(await verdicts()).toEqual({ 'alpha/shop': 'progressing', 'beta/pay': 'progressing' });
  });
});
