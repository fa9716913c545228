import { LoggerService } from '@backstage/backend-plugin-api';
import { NotificationService } from '@backstage/plugin-notifications-node';
import { SignalsService } from '@backstage/plugin-signals-node';
import {
  Diagnosis,
  ProductRef,
  PromotionEventType,
  formatProductRef,
  shortDigest,
} from '@refplat/plugin-promotions-common';
import { PromotionRecord } from '../database/PromotionStore';
import { ActorNames, NameOf } from '../service/ActorNames';

const SETTLED_EVENTS: PromotionEventType[] = ['merged', 'failed', 'closed', 'rejected', 'superseded'];

/** The signal channel a Product's ladder listens on. */
export function ladderChannel(product: ProductRef): string {
  return `promotions:${formatProductRef(product)}`;
}

/**
 * Tells people and open ladders what changed: a signal per change, so open
 * ladders refresh within seconds, and notifications where someone must act
 * or wants to know (approvers on a promotion awaiting approval, the
 * requester when it merges, fails or is superseded).
 */
export class PromotionsBroadcaster {
  constructor(
    private readonly options: {
      signals?: SignalsService;
      notifications?: NotificationService;
      /** The Product's approvers, who are asked to approve. */
      approvers: (product: ProductRef) => Promise<string[]>;
      /** `promotions.approval.stages`: promotions into these asked the approvers. */
      approvalStages: string[];
      entityUrl?: (product: ProductRef) => string;
      logger: LoggerService;
      /** Notifications name people, not entity refs. */
      names: ActorNames;
    },
  ) {}

  private readonly changeListeners: Array<(product: ProductRef) => void> = [];

  /** In-process memos of a Product's state (the shared ladder builds) hear of each change. */
  onProductChanged(listener: (product: ProductRef) => void): void {
    this.changeListeners.push(listener);
  }

  async productChanged(product: ProductRef, what: string): Promise<void> {
    // Before the signal: a ladder refreshing on it must not get the memo from before the change.
    for (const listener of this.changeListeners) listener(product);
    try {
      await this.options.signals?.publish({
        recipients: { type: 'broadcast' },
        channel: ladderChannel(product),
        message: { product: formatProductRef(product), what },
      });
    } catch (error) {
      this.options.logger.debug(`Could not signal ${formatProductRef(product)}: ${error}`);
    }
  }

  async promotionChanged(promotion: PromotionRecord, event: PromotionEventType): Promise<void> {
    await this.productChanged(promotion, event);
    const { notifications } = this.options;
    if (!notifications) return;
    const approvers = await this.options.approvers(promotion);
    const nameOf = await this.options.names.namesOf([promotion.requestedBy]);
    for (const notification of this.notificationFor(promotion, event, approvers, nameOf)) {
      try {
        await notifications.send(notification);
      } catch (error) {
        this.options.logger.warn(`Could not notify about promotion ${promotion.id}: ${error}`);
      }
    }
  }

  /** Tells the Product's owners that a stage is stuck; the caller makes it once per stall. */
  async stuck(
    product: ProductRef,
    owners: string[],
    stage: string,
    service: string,
    diagnosis: Diagnosis,
  ): Promise<void> {
    if (!this.options.notifications || owners.length === 0) return;
    try {
      await this.options.notifications.send({
        recipients: { type: 'entity', entityRef: owners },
        payload: {
          title: `${service} is stuck in ${stage} (${formatProductRef(product)})`,
          description: `Last step: ${diagnosis.lastCompletedStep}. Likely cause: ${diagnosis.likelyCause}`,
          link: this.options.entityUrl?.(product) ?? diagnosis.whereToLook.find(l => l.url)?.url,
          severity: 'high',
          topic: 'promotions',
          scope: `promotions:stuck:${formatProductRef(product)}:${stage}:${service}`,
        },
      });
    } catch (error) {
      this.options.logger.warn(`Could not notify owners of ${formatProductRef(product)}: ${error}`);
    }
  }

  private notificationFor(promotion: PromotionRecord, event: PromotionEventType, approvers: string[], nameOf: NameOf) {
    const product = formatProductRef(promotion);
    const link = this.options.entityUrl?.(promotion) ?? promotion.pullRequest.url;
    const about = describePromotion(promotion);
    const pr = `PR #${promotion.pullRequest.number}`;
    const payload = (
      title: string,
      description: string,
      severity: 'low' | 'normal' | 'high' = 'normal',
      scope = `promotions:${promotion.id}:${event}`,
    ) => ({ title, description, link, severity, topic: 'promotions', scope });
    const requester = promotion.requestedBy.startsWith('user:') ? promotion.requestedBy : undefined;

    // One notification per promotion for the approvers (one scope): asking,
    // asking again, and finally saying it needs nothing more from them, so
    // an approval request never stays in their inbox after it settled.
    const toApprovers = (title: string, description: string, severity: 'low' | 'high') => ({
      recipients: {
        type: 'entity' as const,
        entityRef: approvers,
        excludeEntityRef: promotion.requestedBy,
      },
      payload: payload(title, description, severity, `promotions:${promotion.id}:approval`),
    });
    if (event === 'pr-opened' && promotion.status === 'awaiting-approval') {
      return [
        toApprovers(
          `${capitalize(about)} in ${product} awaits your approval`,
          `${nameOf(promotion.requestedBy)} asks to ${about} in ${product} (${pr}).`,
          'high',
        ),
      ];
    }
    if (event === 'approval-voided') {
      return [
        toApprovers(
          `${capitalize(about)} in ${product} needs your approval again`,
          promotion.statusReason ?? `The head of ${pr} moved after it was approved.`,
          'high',
        ),
      ];
    }
    if (!SETTLED_EVENTS.includes(event)) return [];
    const settled = event === 'merged' ? `${pr} merged.` : promotion.statusReason ?? `${pr} ${event}.`;
    return [
      ...(this.options.approvalStages.includes(promotion.toStage)
        ? [toApprovers(`No approval needed any more: ${about} in ${product} ${event}`, settled, 'low')]
        : []),
      ...(requester
        ? [
            {
              recipients: { type: 'entity' as const, entityRef: requester },
              payload: payload(
                event === 'merged' ? `Merged: ${about} in ${product}` : `${capitalize(event)}: ${about} in ${product}`,
                settled,
              ),
            },
          ]
        : []),
    ];
  }
}


function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "promote storefront, cart test → uat", or "roll back prod: storefront to sha256:1a2b…". */
export function describePromotion(promotion: Pick<PromotionRecord, 'kind' | 'services' | 'fromStage' | 'toStage'>): string {
  const services = Object.keys(promotion.services);
  if (promotion.kind === 'rollback') {
    const targets = Object.entries(promotion.services).map(
      ([service, digest]) => `${service} to ${shortDigest(digest)}`,
    );
    return `roll back ${promotion.toStage}: ${targets.join(', ')}`;
  }
  return `promote ${services.join(', ')} ${promotion.fromStage} → ${promotion.toStage}`;
}
