import { Ladder, ProductRef, formatProductRef } from '@refplat/plugin-promotions-common';
import { ApplicationListing } from '../health/HealthSource';
import { RecentResults } from '../health/RecentResults';

/** What a shared build needs: the two per-view reads and the build itself (LadderService). */
export interface LadderBuilder {
  /** Without a Product: every Product's Applications. */
  listApplications(product?: ProductRef): Promise<ApplicationListing>;
  getLadder(product: ProductRef, at: { revision: string; listing: ApplicationListing }): Promise<Ladder>;
}

/**
 * One ladder build shared by every viewer of a Product. The build's inputs
 * are the branch head and the Application list (both already shared per TTL)
 * plus the plugin's own state (promotions, holds, decisions); so a build is
 * keyed by Product, head and listing, and forgotten when the Product changes
 * (`PromotionsBroadcaster`'s change signal). Concurrent viewers wait on the
 * same build; later ones reuse it while head and listing stay the same, at
 * most `ttlMs` after it settled. The ladder holds nothing per viewer, so all
 * of them get the same object: callers must not change it.
 */
export class SharedLadders {
  private readonly builds: RecentResults<Ladder>;
  /** Listings are compared by identity: the coalescing health source hands out one object per TTL. */
  private readonly listingIds = new WeakMap<ApplicationListing, number>();
  private listings = 0;

  constructor(
    private readonly options: {
      builder: LadderBuilder;
      headCommit: () => Promise<string>;
      ttlMs: number;
      now?: () => number;
    },
  ) {
    this.builds = new RecentResults(options.ttlMs, options.now);
  }

  /** `listing`: the Product's Applications from a list of all of them (the overview's sweep), else its own list. */
  async get(product: ProductRef, listed?: ApplicationListing): Promise<Ladder> {
    const { builder, headCommit } = this.options;
    const [revision, listing] = await Promise.all([headCommit(), listed ?? builder.listApplications(product)]);
    const key = `${keyOf(product)}${revision}#${this.listingId(listing)}`;
    return this.builds.get(key, () => builder.getLadder(product, { revision, listing }));
  }

  /** The Product's promotions, holds or decisions changed: the next view builds again. */
  productChanged(product: ProductRef): void {
    this.builds.forget(keyOf(product));
  }

  private listingId(listing: ApplicationListing): number {
    let id = this.listingIds.get(listing);
    if (id === undefined) {
      id = ++this.listings;
      this.listingIds.set(listing, id);
    }
    return id;
  }
}

/** `team/product@`: the prefix of every key of one Product, and of no other's. */
function keyOf(product: ProductRef): string {
  return `${formatProductRef(product)}@`;
}
