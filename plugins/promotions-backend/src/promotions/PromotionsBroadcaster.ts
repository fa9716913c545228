import { LoggerService } from '@backstage/backend-plugin-api';
import { NotificationService } from '@backstage/plugin-notifications-node';
import { SignalsService } from '@backstage/plugin-signals-node';
import {
  Diagnosis,
  ProductRef,
  PromotionEventType,
  formatProductRef,
} from '@refplat/plugin-promotions-common';
import { PromotionRecord } from '../database/PromotionStore';

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
      approvers: string[];
      entityUrl?: (product: ProductRef) => string;
      logger: LoggerService;
    },
  ) {}

  async productChanged(product: ProductRef, what: string): Promise<void> {
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
    const notification = this.notificationFor(promotion, event);
    if (!notification || !this.options.notifications) return;
    try {
      await this.options.notifications.send(notification);
    } catch (error) {
      this.options.logger.warn(`Could not notify about promotion ${promotion.id}: ${error}`);
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

  private notificationFor(promotion: PromotionRecord, event: PromotionEventType) {
    const product = formatProductRef(promotion);
    const services = Object.keys(promotion.services).join(', ');
    const link = this.options.entityUrl?.(promotion) ?? promotion.pullRequest.url;
    const about = `${services} ${promotion.fromStage} → ${promotion.toStage} in ${product}`;
    const payload = (title: string, description: string, severity: 'normal' | 'high' = 'normal') => ({
      title,
      description,
      link,
      severity,
      topic: 'promotions',
      scope: `promotions:${promotion.id}:${event}`,
    });
    const requester = promotion.requestedBy.startsWith('user:') ? promotion.requestedBy : undefined;

    const toApprovers = (title: string, description: string) => ({
      recipients: {
        type: 'entity' as const,
        entityRef: this.options.approvers,
        excludeEntityRef: promotion.requestedBy,
      },
      payload: payload(title, description, 'high'),
    });
    if (event === 'pr-opened' && promotion.status === 'awaiting-approval') {
      return toApprovers(
        `Promotion into ${promotion.toStage} awaits your approval`,
        `${promotion.requestedBy} asks to promote ${about} (PR #${promotion.pullRequest.number}).`,
      );
    }
    if (event === 'approval-voided') {
      return toApprovers(
        `Promotion into ${promotion.toStage} needs your approval again`,
        promotion.statusReason ?? `The head of PR #${promotion.pullRequest.number} moved after it was approved.`,
      );
    }
    if (!requester) return undefined;
    const toRequester = (title: string, description: string) => ({
      recipients: { type: 'entity' as const, entityRef: requester },
      payload: payload(title, description),
    });
    if (event === 'merged') {
      return toRequester(`Promotion merged: ${about}`, `PR #${promotion.pullRequest.number} merged.`);
    }
    if (event === 'failed' || event === 'closed' || event === 'superseded') {
      return toRequester(
        `Promotion ${event}: ${about}`,
        promotion.statusReason ?? `PR #${promotion.pullRequest.number} ${event}.`,
      );
    }
    return undefined;
  }
}
