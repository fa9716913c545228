import { randomUUID } from 'crypto';
import pLimit from 'p-limit';
import { setImmediate } from 'timers/promises';
import {
  AuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { CatalogService } from '@backstage/plugin-catalog-node';
import {
  AutoDecision,
  AutoPromoteContext,
  AutoPromotionPlan,
  PRODUCT_ANNOTATION,
  ProductRef,
  decideAutoPromotions,
  formatProductRef,
  parseProductRef,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { AutoDecisionStore } from '../database/AutoDecisionStore';
import { HealthySinceStore } from '../database/HealthySinceStore';
import { HoldStore } from '../database/HoldStore';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import type { PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import { ApplicationListing, HealthSource, listingsByProduct } from '../health/HealthSource';
import { LadderService } from '../ladder/LadderService';
import { productsAt } from '../ladder/readProductRecords';
import { PromotionService } from './PromotionService';
import { recordAutoPromoterProduct, recordAutoPromoterRun } from '../telemetry/promotionsMetrics';

/** The identity auto-promotions are requested by, on the PR and in the audit. */
export const AUTO_PROMOTER = 'plugin:promotions/auto-promoter';
/** On a System: `"false"` keeps the auto-promoter away from its Product. */
export const AUTO_PROMOTE_ANNOTATION = 'refplat.org/auto-promote';
/**
 * Products decided at once. Their reads (history, resource trees, the
 * database) overlap; their writes still go one at a time through the write
 * queue. GitHub allows 100 concurrent requests; 8 stays far below.
 */
const PRODUCT_CONCURRENCY = 8;

export interface AutoPromoterRun {
  runId: string;
  products: number;
  optedOut: string[];
  /** Products in the platform repo without a System in the catalog (yet): left alone. */
  notInCatalog: string[];
  decisions: Array<AutoDecision & { product: string }>;
  /** The promotions it put in the write queue (PromotionQueue opens their PRs in turn). */
  queued: Array<{ product: string; toStage: string; promotionId: string }>;
}

/**
 * Reconciler 1: each run moves healthy digests up one rung, below the first
 * approval stage, for every Product in the platform repo. It reads the
 * branch head, the tree and the Applications once per run, so an unchanged
 * platform costs a handful of requests however many Products there are.
 */
export class AutoPromoter {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      reader: PlatformRepoFiles;
      ladder: LadderService;
      promotions: PromotionService;
      healthSource?: HealthSource;
      holds: HoldStore;
      healthySince: HealthySinceStore;
      decisions: AutoDecisionStore;
      /** Only the Systems are read, for their Product and opt-out annotations. */
      catalog: Pick<CatalogService, 'getEntities'>;
      /** Only the plugin's own credentials, for the catalog. */
      auth: Pick<AuthService, 'getOwnServiceCredentials'>;
      logger: LoggerService;
      /** When the run decides (soak times); the machine's clock when not given. */
      clock?: Clock;
    },
  ) {}

  private get fleet(): boolean {
    return this.options.config.autoPromote.fleet.enabled;
  }

  /** `only`: just these Products (a webhook said their files changed), else all of them. */
  async run(options: { only?: ProductRef[] } = {}): Promise<AutoPromoterRun> {
    // Wall time, not the injected clock's: the run's real cost, failed runs included.
    const started = performance.now();
    try {
      return await this.decideAll(options);
    } finally {
      recordAutoPromoterRun((performance.now() - started) / 1000);
    }
  }

  private async decideAll(options: { only?: ProductRef[] }): Promise<AutoPromoterRun> {
    const { reader, logger } = this.options;
    const now = (this.options.clock ?? systemClock).now();
    const runId = randomUUID();
    const revision = await reader.headCommit();
    const wanted = options.only && new Set(options.only.map(formatProductRef));
    // The Products as the ladder decides existence (productsAt), with names a route can carry.
    const products = productsAt(this.options.config, await reader.fileIndex(revision))
      .filter(product => parseProductRef(formatProductRef(product)) && (!wanted || wanted.has(formatProductRef(product))));
    const { inCatalog, optedOut } = await this.catalogProducts();
    const listingFor = listingsByProduct(await this.listAll(), this.options.config.applicationLabels);
    const result: AutoPromoterRun = { runId, products: products.length, optedOut, notInCatalog: [], decisions: [], queued: [] };

    // A Set: an organisation that opts thousands of Products out would otherwise search the list per Product.
    const optedOutNames = new Set(optedOut);
    const candidates = products.filter(product => {
      const name = `${product.team}/${product.product}`;
      if (optedOutNames.has(name)) return false;
      if (!inCatalog.has(name)) result.notInCatalog.push(name);
      return inCatalog.has(name);
    });
    const limit = pLimit(PRODUCT_CONCURRENCY);
    const outcomes = await Promise.all(
      candidates.map(product => limit(() => this.runProduct(product, { runId, revision, now, listing: listingFor(product) }))),
    );
    for (const outcome of outcomes) {
      result.decisions.push(...outcome.decisions);
      result.queued.push(...outcome.queued);
    }
    // Fleet mode: the queue looks once the whole run has queued, so the run's promotions share PRs.
    if (this.fleet && result.queued.length) this.options.promotions.queueWaiting();
    const unknown = result.notInCatalog.length ? `, ${result.notInCatalog.length} without a System in the catalog left alone` : '';
    logger.info(
      `Auto-promoter run ${runId}: ${products.length} products${unknown}, ${result.queued.length} promotions queued to open`,
    );
    return result;
  }

  /** One Product's decisions; an error fails that Product alone, and the run goes on for the others. */
  private async runProduct(
    product: ProductRef,
    run: { runId: string; revision: string; now: Date; listing: ApplicationListing },
  ): Promise<Pick<AutoPromoterRun, 'decisions' | 'queued'>> {
    const { promotions, logger } = this.options;
    const name = `${product.team}/${product.product}`;
    const queued: AutoPromoterRun['queued'] = [];
    // A Product whose files and decisions come from caches resolves without I/O: thousands of
    // them in a row held the event loop for 24 s at 10,000 Products, and every HTTP request
    // in flight meanwhile (ArgoCD reads for the climbing Products, people's views) timed out.
    await setImmediate();
    try {
      const plan = await this.plan(product, run);
      for (const promotion of plan.promotions) {
        try {
          const outcome = await promotions.request(
            product,
            { toStage: promotion.toStage, services: promotion.services },
            AUTO_PROMOTER,
            { supersede: false, phase: 'auto-promote', queue: true, drain: !this.fleet },
          );
          if (!outcome.existing) {
            queued.push({ product: name, toStage: promotion.toStage, promotionId: outcome.promotion.id });
          }
        } catch (error) {
          for (const decision of plan.decisions) {
            if (decision.toStage === promotion.toStage && decision.decision === 'promote') {
              decision.decision = 'skip';
              decision.reason = `could not request the promotion: ${(error as Error).message}`;
            }
          }
        }
      }
      await this.options.decisions.record(run.runId, product, plan.decisions, run.now);
      recordAutoPromoterProduct(queued.length ? 'queued' : 'unchanged');
      return { decisions: plan.decisions.map(d => ({ ...d, product: name })), queued };
    } catch (error) {
      logger.warn(`Auto-promoter skipped ${name}: ${error}`);
      recordAutoPromoterProduct('failed');
      return { decisions: [], queued };
    }
  }

  /** What the rule decides for one Product: from its records alone when it is idle, else from its ladder. */
  private async plan(
    product: ProductRef,
    run: { revision: string; now: Date; listing: ApplicationListing },
  ): Promise<AutoPromotionPlan> {
    const { ladder, idle } = await this.options.ladder.autoPromotionLadder(product, run);
    const soakSeconds = this.options.config.soakSeconds;
    // Nothing offered to climb: no hold, soak or live promotion can change a decision.
    const context: AutoPromoteContext = idle
      ? { holds: [], soakSeconds, healthySince: {}, livePromotions: [], now: run.now }
      : {
          holds: await this.options.holds.listLive(product),
          soakSeconds,
          healthySince: await this.options.healthySince.read(product),
          livePromotions: ladder.promotions,
          now: run.now,
        };
    return decideAutoPromotions(ladder, context);
  }

  /**
   * The Products the catalog has a System for, and those whose System opts
   * out. Only these are promoted: a Product whose System the catalog has not
   * ingested yet (a backend just started, a catalog rebuilt) may be one that
   * opts out, and an owner-less Product has nobody to answer for it.
   */
  private async catalogProducts(): Promise<{ inCatalog: Set<string>; optedOut: string[] }> {
    const credentials = await this.options.auth.getOwnServiceCredentials();
    const { items } = await this.options.catalog.getEntities(
      { filter: { kind: 'System' }, fields: ['metadata.annotations'] },
      { credentials },
    );
    const inCatalog = new Set<string>();
    const optedOut: string[] = [];
    for (const entity of items) {
      const product = entity.metadata.annotations?.[PRODUCT_ANNOTATION];
      if (!product) continue;
      inCatalog.add(product);
      if (entity.metadata.annotations?.[AUTO_PROMOTE_ANNOTATION] === 'false') optedOut.push(product);
    }
    return { inCatalog, optedOut };
  }

  private async listAll(): Promise<ApplicationListing> {
    if (!this.options.healthSource) {
      return { applications: [], errors: ['No health source configured'] };
    }
    try {
      return await this.options.healthSource.listApplications();
    } catch (error) {
      return { applications: [], errors: [(error as Error).message] };
    }
  }
}
