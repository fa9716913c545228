import type { LoggerService } from '@backstage/backend-plugin-api';
import type { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import pLimit from 'p-limit';
import { setImmediate } from 'timers/promises';

/** Ladders built at once by a sweep: enough to overlap their reads, few enough to leave the machine to requests. */
const SWEEP_CONCURRENCY = 4;

export interface StuckSweepOptions {
  /** Every Product on the platform branch's head. */
  products(): Promise<ProductRef[]>;
  /** A sweep's ladder builder: every Product's Applications listed once for the whole sweep. */
  sweepLadders(): Promise<(product: ProductRef) => Promise<Ladder>>;
  /** Tells the owners of each stuck service of a ladder, once per stall (StuckNotifier). */
  notifyStuck(ladder: Ladder): Promise<void>;
  logger: LoggerService;
}

/**
 * The scheduled source of stuck notifications: a stall is diagnosed by how
 * long a stage has waited, so it becomes one between events, with nobody
 * looking. One replica runs it (a global task); a Product whose ladder cannot
 * be built is logged and the others are still looked at.
 */
export class StuckSweep {
  constructor(private readonly options: StuckSweepOptions) {}

  async run(): Promise<{ products: number; failed: number }> {
    const { products, sweepLadders, notifyStuck, logger } = this.options;
    const [all, ladderOf] = await Promise.all([products(), sweepLadders()]);
    const limit = pLimit(SWEEP_CONCURRENCY);
    let failed = 0;
    await Promise.all(
      all.map(product =>
        limit(async () => {
          // Ladders built from caches resolve with promises alone: without a turn of the event loop
          // between Products, a sweep of thousands holds it, as the auto-promoter's scan did (24 s).
          await setImmediate();
          try {
            await notifyStuck(await ladderOf(product));
          } catch (error) {
            failed += 1;
            logger.warn(`Stuck sweep skipped ${product.team}/${product.product}: ${error}`);
          }
        }),
      ),
    );
    return { products: all.length, failed };
  }
}
