import { createDeferred } from '@backstage/types';
import type { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { ApplicationListing } from '../health/HealthSource';
import { LadderBuilder, SharedLadders } from './SharedLadders';

const shop: ProductRef = { team: 'alpha', product: 'shop' };
const payments: ProductRef = { team: 'beta', product: 'payments' };

describe('SharedLadders', () => {
  let clock: number;
  let head: string;
  let listing: ApplicationListing;
  let builder: jest.Mocked<LadderBuilder>;
  let shared: SharedLadders;

  beforeEach(() => {
    clock = 1_000;
    head = 'c0ffee';
    listing = { applications: [], errors: [] };
    builder = {
      listApplications: jest.fn(async (_product?: ProductRef) => listing),
      getLadder: jest.fn(async (product, at) => ({ ...product, revision: at.revision }) as unknown as Ladder),
    };
    shared = new SharedLadders({ builder, headCommit: async () => head, ttlMs: 5_000, now: () => clock });
  });

  it('builds once for 20 concurrent viewers, who all get that build', async () => {
    const build = createDeferred<Ladder>();
    builder.getLadder.mockReturnValue(build);
    const viewers = Array.from({ length: 20 }, () => shared.get(shop));
    await new Promise(setImmediate);
    build.resolve({ revision: head } as Ladder);
    const ladders = await Promise.all(viewers);
    expect(builder.getLadder).toHaveBeenCalledTimes(1);
    expect(builder.getLadder).toHaveBeenCalledWith(shop, { revision: 'c0ffee', listing });
    expect(new Set(ladders).size).toBe(1);
  });

  it('reuses the build for later viewers while head and listing are unchanged, within the TTL', async () => {
    await shared.get(shop);
    clock += 4_999;
    await shared.get(shop);
    expect(builder.getLadder).toHaveBeenCalledTimes(1);
    clock += 1;
    await shared.get(shop);
    expect(builder.getLadder).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['a new branch head', () => (head = 'beef')],
    ['a new Application listing', () => (listing = { applications: [], errors: [] })],
  ])('builds again on %s', async (_, change) => {
    await shared.get(shop);
    change();
    await shared.get(shop);
    expect(builder.getLadder).toHaveBeenCalledTimes(2);
  });

  it("builds a Product again after it changed, and only that Product", async () => {
    await Promise.all([shared.get(shop), shared.get(payments)]);
    shared.productChanged(shop);
    await Promise.all([shared.get(shop), shared.get(payments)]);
    expect(builder.getLadder.mock.calls.map(([product]) => product)).toEqual([shop, payments, shop]);
  });

  it('does not keep a build that was in flight when the Product changed', async () => {
    const beforeChange = createDeferred<Ladder>();
    builder.getLadder.mockReturnValueOnce(beforeChange);
    const inFlight = shared.get(shop);
    await new Promise(setImmediate);
    shared.productChanged(shop);
    const afterChange = shared.get(shop);
    beforeChange.resolve({ revision: 'before' } as Ladder);
    await expect(inFlight).resolves.toEqual({ revision: 'before' });
    await expect(afterChange).resolves.toMatchObject({ revision: 'c0ffee' });
    expect(builder.getLadder).toHaveBeenCalledTimes(2);
  });

  it('does not remember a failed build: a 404 is asked again', async () => {
    builder.getLadder.mockRejectedValueOnce(new Error('No Release records'));
    await expect(shared.get(shop)).rejects.toThrow('No Release records');
    await expect(shared.get(shop)).resolves.toMatchObject({ revision: 'c0ffee' });
  });

  it("builds from a listing of all Products' Applications when given one, without listing the Product's own", async () => {
    const fromSweep: ApplicationListing = { applications: [], errors: ['from the sweep'] };
    await shared.get(shop, fromSweep);
    expect(builder.listApplications).not.toHaveBeenCalled();
    expect(builder.getLadder).toHaveBeenCalledWith(shop, { revision: 'c0ffee', listing: fromSweep });
  });
});
