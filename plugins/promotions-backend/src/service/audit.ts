import { AuditorService, AuditorServiceEventSeverityLevel } from '@backstage/backend-plugin-api';
import { JsonObject } from '@backstage/types';
import { Promotion, formatProductRef } from '@refplat/plugin-promotions-common';
import express from 'express';

/**
 * The security-relevant actions that also go to Backstage's auditor, so an
 * adopter's audit pipeline sees them next to the rest of Backstage; the
 * plugin's own trail (promotion events, holds) is kept as it is.
 */
export type AuditedAction =
  | 'promotion-request'
  | 'promotion-approve'
  | 'promotion-reject'
  | 'promotion-withdraw'
  | 'promotion-override'
  | 'promotion-rollback'
  | 'hold-place'
  | 'hold-lift'
  | 'incident-open'
  | 'incident-resolve';

// Approvals and rollbacks change prod out of the ordinary flow: ranked higher.
const SEVERITY: Record<AuditedAction, AuditorServiceEventSeverityLevel> = {
  'promotion-request': 'medium',
  'promotion-approve': 'high',
  // Closing ships nothing: ranked like a request.
  'promotion-reject': 'medium',
  'promotion-withdraw': 'medium',
  // Lifting policy (a freeze, an incident) lets a change through it: ranked like an approval.
  'promotion-override': 'high',
  'promotion-rollback': 'high',
  'hold-place': 'medium',
  'hold-lift': 'medium',
  // An incident opens or closes stages to promotions for a whole Product.
  'incident-open': 'medium',
  'incident-resolve': 'medium',
};

/** What a route learns while it acts (product, stage, services, promotion id), for the event. */
export type AuditMeta = JsonObject;

/**
 * Runs a route's action as one auditor event. The event starts before
 * anything is checked, so refusals (403, 409, 400) are recorded as failures
 * with their error, not lost; `meta` is filled by the action as it learns
 * what it acts on, and goes with the success or the failure. Without a
 * request (a registered action) the auditor cannot tell the actor, so
 * `initialMeta` names it.
 */
export function auditing(auditor: AuditorService) {
  return async <T>(
    req: express.Request | undefined,
    eventId: AuditedAction,
    action: (meta: AuditMeta) => Promise<T>,
    initialMeta: AuditMeta = {},
  ): Promise<T> => {
    const event = await auditor.createEvent({ eventId, severityLevel: SEVERITY[eventId], request: req });
    const meta: AuditMeta = { ...initialMeta };
    try {
      const result = await action(meta);
      await event.success({ meta });
      return result;
    } catch (error) {
      await event.fail({ meta, error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    }
  };
}

/** The promotion an action acted on, as event meta. */
export function promotionMeta(promotion: Promotion): AuditMeta {
  return {
    product: formatProductRef(promotion),
    stage: promotion.toStage,
    services: promotion.services,
    promotionId: promotion.id,
  };
}
