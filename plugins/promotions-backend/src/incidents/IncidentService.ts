import { AuditorService, LoggerService } from '@backstage/backend-plugin-api';
import { EventsService } from '@backstage/plugin-events-node';
import { IncidentPolicy, IncidentReport, ProductRef, parseProductRef } from '@refplat/plugin-promotions-common';
import express from 'express';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { auditing } from '../service/audit';
import { checkedBody } from '../service/requestBodies';
import { IncidentStore } from './IncidentStore';
import { applyLifecycleEvent } from '../promotions/PromotionLifecycle';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';

/** The events topic incident tools publish on. */
export const INCIDENTS_TOPIC = 'promotions.incidents';
const INCIDENTS_ACTOR = 'promotions-incidents';
/** The subscriber id: with the events backend's bus, one replica handles each event. */
const SUBSCRIBER_ID = 'promotions-incidents';

/**
 * Takes incident reports (events on `promotions.incidents`, or `POST
 * /incidents`), keeps the Products' open incidents, and moves the Product's
 * live promotions at once: an opening incident takes back approvals that no
 * longer suffice (approval mode), and either change has the Gate look again,
 * so a resolve releases what the incident held.
 */
export class IncidentService {
  private readonly audited: ReturnType<typeof auditing>;

  constructor(
    private readonly options: {
      policy: IncidentPolicy;
      incidents: IncidentStore;
      store: PromotionStore;
      /** Approves a waiting promotion whose approvals are complete now (see ApprovalService.settle). */
      settleApproval: (promotion: PromotionRecord) => Promise<unknown>;
      livePromotions: (product: ProductRef) => Promise<PromotionRecord[]>;
      /** Has the Gate look at a promotion now, rather than at its next run. */
      checkPromotion: (id: string) => Promise<void>;
      productChanged: (product: ProductRef, what: string) => Promise<void>;
      auditor: AuditorService;
      logger: LoggerService;
      /** When an incident opened or was resolved, as recorded; the machine's clock when not given. */
      clock?: Clock;
    },
  ) {
    this.audited = auditing(options.auditor);
  }

  subscribe(events: EventsService): Promise<void> {
    return events.subscribe({
      id: SUBSCRIBER_ID,
      topics: [INCIDENTS_TOPIC],
      onEvent: async params => {
        try {
          await this.report(checkedBody('IncidentReport', params.eventPayload), { via: 'events' });
        } catch (error) {
          // Nobody waits for an answer on the topic: a malformed report is only logged.
          this.options.logger.warn(`Could not take the incident report on ${INCIDENTS_TOPIC}: ${error}`);
        }
      },
    });
  }

  /**
   * Records a report, checked against openapi.yaml's IncidentReport, as the
   * auditor event `incident-open` or `incident-resolve`; `changed` is false for
   * a report that changes nothing (delivered twice, or resolving an incident not open).
   */
  async report(reported: IncidentReport, source: { request?: express.Request; via: 'events' | 'http' }) {
    // Its four fields only, the id without surrounding blanks: what is kept and answered.
    const report: IncidentReport = {
      product: reported.product,
      id: reported.id.trim(),
      state: reported.state,
      url: reported.url,
    };
    const product = parseProductRef(report.product)!;
    const eventId = report.state === 'open' ? 'incident-open' : 'incident-resolve';
    const changed = await this.audited(
      source.request,
      eventId,
      async meta => {
        Object.assign(meta, { product: report.product, incident: report.id, url: report.url });
        const now = (this.options.clock ?? systemClock).now();
        const didChange =
          report.state === 'open'
            ? await this.options.incidents.open(product, report.id, report.url, now)
            : await this.options.incidents.resolve(product, report.id, now);
        meta.changed = didChange;
        return didChange;
      },
      { source: source.via, ...(source.request ? {} : { actor: INCIDENTS_ACTOR }) },
    );
    if (changed) {
      this.options.logger.info(`Incident ${report.id} of ${report.product} is ${report.state}: ${report.url}`);
      await this.moveLivePromotions(product, report);
    }
    return { incident: report, changed };
  }

  private async moveLivePromotions(product: ProductRef, report: IncidentReport) {
    const { policy, store, settleApproval, livePromotions, checkPromotion, productChanged } = this.options;
    const live = await livePromotions(product);
    const guarded = live.filter(promotion => policy.stages.includes(promotion.toStage));
    if (report.state === 'open' && policy.mode === 'approval') {
      const reason = `Incident ${report.id} opened (${report.url}): an incident commander must approve it as well`;
      for (const promotion of guarded.filter(p => p.status === 'approved')) {
        await applyLifecycleEvent(store, promotion.id, 'incident-opened', {
          expected: { approvedSha: promotion.approvedSha ?? null },
          changes: { approvedBy: undefined, approvedSha: undefined, statusReason: reason },
        });
      }
    }
    if (report.state === 'resolved') {
      for (const promotion of guarded) await settleApproval(promotion);
    }
    await productChanged(product, `incident-${report.state}`);
    // The same promotions, as the Gate reads each afresh: the changes above do not end any.
    await Promise.all(live.map(promotion => checkPromotion(promotion.id)));
  }
}
