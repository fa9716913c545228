import { LoggerService } from '@backstage/backend-plugin-api';
import { EventParams, EventsService } from '@backstage/plugin-events-node';
import { ProductRef, formatProductRef } from '@refplat/plugin-promotions-common';
import { PromotionRecord } from '../database/PromotionStore';
import {
  WatchedRepo,
  pullRequestToCheck,
  pushImpact,
  statusShaToCheck,
} from './githubEvents';

/** Topics `@backstage/plugin-events-backend-module-github` publishes (`github.<X-GitHub-Event>`). */
export const GITHUB_TOPICS = ['github.push', 'github.pull_request', 'github.status'];

/** The subscriber id: with the events backend's bus, one replica handles each event. */
const SUBSCRIBER_ID = 'promotions-github-webhooks';

export interface PromotionsWebhooksOptions {
  repo: WatchedRepo;
  /** The live promotions (the Gate's own list); webhooks pick among them. */
  listLive(): Promise<PromotionRecord[]>;
  /** Runs the Gate for one promotion now (shared with a run already in flight). */
  check(id: string): Promise<void>;
  /** The branch moved: forget the remembered head so the next read sees it. */
  forgetHead(): void;
  /** Tells the Product's open ladders to refresh. */
  productChanged(product: ProductRef): Promise<void>;
  /** The auto-promoter for these Products, when it is enabled. */
  autoPromote?(products: ProductRef[]): Promise<unknown>;
  logger: LoggerService;
}

/**
 * Reacts to GitHub webhooks so that promotions move when GitHub changes, not at the
 * Gate's next poll: a push to the platform repo's branch refreshes the Products whose
 * Release or Environment files it changed, and a PR closed or merged by hand or a
 * commit status moves the promotion it names. Every reaction is a Gate check, which
 * is idempotent, so a duplicate or late delivery does no harm and polling stays the
 * fallback for deliveries that never arrive.
 *
 * The delivery is answered before the reaction ends: the events backend's ingress
 * answers GitHub only once its subscribers return, GitHub counts a delivery not
 * answered within 10 s as failed, and a reaction can take longer (a Gate merge
 * waits for the write pacing, ArgoCD may be slow).
 */
export class PromotionsWebhooks {
  /** Reactions still running. */
  private readonly reactions = new Set<Promise<void>>();

  constructor(private readonly options: PromotionsWebhooksOptions) {}

  subscribe(events: EventsService): Promise<void> {
    return events.subscribe({
      id: SUBSCRIBER_ID,
      topics: GITHUB_TOPICS,
      onEvent: params => this.onEvent(params),
    });
  }

  /** Starts the event's reaction and returns at once. */
  async onEvent(params: EventParams): Promise<void> {
    const reaction = this.react(params).finally(() => this.reactions.delete(reaction));
    this.reactions.add(reaction);
  }

  /** Until every reaction started so far, and any started meanwhile, has ended. */
  async settled(): Promise<void> {
    while (this.reactions.size > 0) await Promise.all(this.reactions);
  }

  private async react(params: EventParams): Promise<void> {
    const payload = params.eventPayload as Record<string, unknown> | undefined;
    try {
      if (params.topic === 'github.push') await this.onPush(payload);
      else if (params.topic === 'github.pull_request') {
        const number = pullRequestToCheck(payload, this.options.repo);
        if (number) await this.checkWhere(p => p.pullRequest.number === number);
      } else if (params.topic === 'github.status') {
        const sha = statusShaToCheck(payload, this.options.repo);
        if (sha) await this.checkWhere(p => p.headSha === sha);
      }
    } catch (error) {
      // A failed reaction is caught up by the Gate's poll; the delivery itself was fine.
      this.options.logger.warn(`Could not act on GitHub event ${params.topic}: ${error}`);
    }
  }

  private async onPush(payload: Record<string, unknown> | undefined) {
    const impact = pushImpact(payload, this.options.repo);
    if (impact.kind === 'ignore') return;
    this.options.forgetHead();
    const live = await this.options.listLive();
    const products =
      impact.kind === 'products'
        ? impact.products
        : // Which files changed is unknown: every Product with a live promotion.
          unique(live.map(p => ({ team: p.team, product: p.product })));
    const names = new Set(products.map(formatProductRef));
    this.options.logger.info(
      `GitHub push to ${this.options.repo.branch} changed ${names.size ? [...names].join(', ') : 'no Product'}`,
    );
    await Promise.all([
      ...live.filter(p => names.has(formatProductRef(p))).map(p => this.options.check(p.id)),
      ...products.map(product => this.options.productChanged(product)),
    ]);
    if (products.length > 0 && this.options.autoPromote) {
      await this.options.autoPromote(products);
    }
  }

  private async checkWhere(matches: (promotion: PromotionRecord) => boolean) {
    const live = (await this.options.listLive()).filter(matches);
    await Promise.all(live.map(p => this.options.check(p.id)));
  }
}

function unique(products: ProductRef[]): ProductRef[] {
  const byName = new Map(products.map(p => [formatProductRef(p), p]));
  return [...byName.values()];
}
