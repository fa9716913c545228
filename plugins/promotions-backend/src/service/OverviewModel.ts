import { LoggerService } from '@backstage/backend-plugin-api';
import { NotFoundError } from '@backstage/errors';
import pLimit from 'p-limit';
import { setImmediate } from 'timers/promises';
import {
  Ladder,
  OverviewRow,
  ProductRef,
  StuckItem,
  formatProductRef,
  overviewRow,
  stuckItems,
} from '@refplat/plugin-promotions-common';

/** One Product as the organisation's views show it. */
export interface ProductOverview {
  product: ProductRef;
  row: OverviewRow;
  stuck: StuckItem[];
  /** Which build made it: a newer one wins when a sweep and a change's rebuild overlap. */
  build: number;
}

/** Ladders built at once during a sweep: enough to overlap their reads, few enough to leave the machine to requests. */
const SWEEP_CONCURRENCY = 8;

/**
 * Every Product's row, kept warm: building 1,000 ladders takes seconds, so a
 * view answers from the rows of the last sweep. The first view waits for
 * one; a view after `refreshMs` starts the next in the background, and one
 * after `maxStaleMs` (the rows would be too old to show) waits for it. A
 * Product the plugin changed (a promotion, hold or health signal) is built
 * again before the next view answers, so a person sees their own change.
 * Rows come from the same shared ladder builds as the ladder view, so the
 * model adds no upstream request of its own.
 */
export class OverviewModel {
  private entries = new Map<string, ProductOverview>();
  private readonly changed = new Set<string>();
  private sweep?: Promise<void>;
  private sweptAt?: number;
  private rebuild?: Promise<void>;
  private builds = 0;

  constructor(
    private readonly options: {
      /** Every Product at the branch head. */
      products: () => Promise<ProductRef[]>;
      /** A changed Product's ladder, with its own Application list. */
      ladder: (product: ProductRef) => Promise<Ladder>;
      /** A sweep's ladders: every Product's Applications listed once for all of them. */
      sweepLadders: () => Promise<(product: ProductRef) => Promise<Ladder>>;
      owners: (product: ProductRef) => Promise<string[]>;
      /** Older rows are answered while a background sweep builds new ones. */
      refreshMs: number;
      /** Rows older than this (nobody looked for a while) are not answered: the view waits for a sweep. */
      maxStaleMs: number;
      logger: LoggerService;
      now?: () => number;
    },
  ) {}

  /** A change signal: the Product's row is rebuilt before the next view answers. */
  productChanged(product: ProductRef): void {
    this.changed.add(formatProductRef(product));
  }

  async current(): Promise<ProductOverview[]> {
    const age = this.sweptAt === undefined ? Number.POSITIVE_INFINITY : this.now() - this.sweptAt;
    if (age >= this.options.maxStaleMs) {
      await this.sweepAll();
    } else if (age >= this.options.refreshMs) {
      this.sweepAll().catch(error => this.options.logger.warn(`Overview refresh failed: ${error}`));
    }
    await this.rebuildChanged();
    return [...this.entries.values()];
  }

  /** Single-flight: concurrent views share one sweep. */
  private sweepAll(): Promise<void> {
    this.sweep ??= (async () => {
      const startedAt = this.now();
      const [products, ladder] = await Promise.all([this.options.products(), this.options.sweepLadders()]);
      const built = await this.buildAll(products, ladder);
      const entries = new Map<string, ProductOverview>();
      for (const [i, product] of products.entries()) {
        const key = formatProductRef(product);
        // A Product whose build failed keeps its last row rather than vanishing from the matrix,
        // and a row rebuilt for a change during the sweep is newer than the sweep's.
        const entry = newest(built[i] ?? undefined, this.entries.get(key));
        if (entry) entries.set(key, entry);
      }
      this.entries = entries;
      this.sweptAt = startedAt;
    })().finally(() => {
      this.sweep = undefined;
    });
    return this.sweep;
  }

  private async rebuildChanged(): Promise<void> {
    while (this.rebuild) await this.rebuild;
    if (this.changed.size === 0) return;
    const keys = [...this.changed];
    this.changed.clear();
    this.rebuild = (async () => {
      const products = keys.map(key => {
        const [team, product] = key.split('/');
        return { team, product };
      });
      const built = await this.buildAll(products, this.options.ladder);
      for (const [i, key] of keys.entries()) {
        const entry = built[i];
        if (entry) this.entries.set(key, newest(entry, this.entries.get(key))!);
        else if (entry === null) this.entries.delete(key);
      }
    })().finally(() => {
      this.rebuild = undefined;
    });
    await this.rebuild;
  }

  /** Each Product's overview; null for one that no longer exists, undefined for one that failed to build. */
  private async buildAll(
    products: ProductRef[],
    ladder: (product: ProductRef) => Promise<Ladder>,
  ): Promise<Array<ProductOverview | null | undefined>> {
    const limit = pLimit(SWEEP_CONCURRENCY);
    return Promise.all(products.map(product => limit(() => this.build(product, ladder))));
  }

  private async build(
    product: ProductRef,
    ladderOf: (product: ProductRef) => Promise<Ladder>,
  ): Promise<ProductOverview | null | undefined> {
    const build = ++this.builds;
    // Ladders built from caches resolve with promises alone: without a turn of the event loop
    // between Products, a sweep of thousands holds it, as the auto-promoter's scan did (24 s).
    await setImmediate();
    try {
      const [ladder, owners] = await Promise.all([ladderOf(product), this.options.owners(product)]);
      return { product, row: overviewRow(ladder, { owners }), stuck: stuckItems(ladder, owners), build };
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      this.options.logger.warn(`Overview left ${formatProductRef(product)} as it was: ${error}`);
      return undefined;
    }
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

function newest(a?: ProductOverview, b?: ProductOverview): ProductOverview | undefined {
  if (!a || !b) return a ?? b;
  return a.build >= b.build ? a : b;
}
