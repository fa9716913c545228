import { possessive } from '../names';
import { actorNameWithoutCatalog } from '../people/actorNames';
import type { Ladder, LadderStage } from '../ladder/types';
import { formatSeconds } from '../argo/canaryState';
import type { PromotionServicePlan } from './types';
import { notHealthyReason, sourceRun } from './sourceRun';

/** @public */
export type PromotionRefusal =
  /** The stage does not exist: bad input (400). */
  | 'unknown-stage'
  /** A named service is not part of the Product: bad input (400). */
  | 'unknown-service'
  /** The first stage has no stage below to promote from (409). */
  | 'no-stage-below'
  /** The target Environment does not declare the service (409). */
  | 'not-declared'
  /** The source stage does not release the service (409). */
  | 'not-released'
  /** The source is not healthy, or its health is unknown (409). */
  | 'unhealthy'
  /** The digest has not been healthy in the source for the soak time yet (409). */
  | 'soaking'
  /** A hold keeps the target stage frozen for the service (409). */
  | 'held'
  /** Every candidate is already carried by the target (409). */
  | 'nothing-to-promote';

/** @public */
export type PromotionPlan =
  | {
      allowed: true;
      fromStage: string;
      toStage: string;
      requiresApproval: boolean;
      /** Service → digest to write into the target. */
      services: Record<string, string>;
      /** Service → digest the target has now (null: not released there). */
      previous: Record<string, string | null>;
      plan: PromotionServicePlan[];
    }
  | {
      allowed: false;
      refusal: PromotionRefusal;
      reason: string;
      plan: PromotionServicePlan[];
    };

/** @public */
export interface PromotionPlanRequest {
  toStage: string;
  /** Omitted: every service that differs and that the target declares. */
  services?: string[];
}

function judgeService(
  service: string,
  source: LadderStage,
  target: LadderStage,
): PromotionServicePlan & { refusal?: PromotionRefusal } {
  const from = source.services[service]?.digest;
  const to = target.services[service]?.digest;
  const base = { service, from, to };
  if (!target.environment.declaredServices.includes(service)) {
    return {
      ...base,
      included: false,
      refusal: 'not-declared',
      reason: `${target.name}'s Environment does not declare ${service}`,
    };
  }
  if (!from) {
    return {
      ...base,
      included: false,
      refusal: 'not-released',
      reason: `${source.name} has no Release of ${service}`,
    };
  }
  if (from === to) {
    return {
      ...base,
      included: false,
      reason: `${target.name} already carries ${possessive(service)} digest from ${source.name}`,
    };
  }
  const hold = target.services[service]?.hold;
  if (hold) {
    return {
      ...base,
      included: false,
      refusal: 'held',
      reason: `${service} is held in ${target.name}: ${hold.reason} (by ${actorNameWithoutCatalog(hold.placedBy)}); lift the hold first`,
    };
  }
  const run = sourceRun(source, service, from);
  // `from` is what the source names, so it cannot have moved on from it.
  if (run.state === 'not-healthy-yet' || run.state === 'unhealthy') {
    return {
      ...base,
      included: false,
      refusal: 'unhealthy',
      reason: notHealthyReason(service, source.name, run.verdict, run.reasons.join('; ')),
    };
  }
  const { soakRemainingSeconds } = source.services[service];
  if (soakRemainingSeconds && soakRemainingSeconds > 0) {
    return {
      ...base,
      included: false,
      refusal: 'soaking',
      reason: `${service} is soaking in ${source.name}: ${formatSeconds(soakRemainingSeconds)} left`,
    };
  }
  return {
    ...base,
    included: true,
    reason: `${source.name} runs it healthy; ${target.name} has ${to ? 'an older digest' : 'none'}`,
  };
}

/**
 * Decides what a promotion into `toStage` carries, one rung up from the
 * stage below, by the ladder's reality rule. Named services must all be
 * promotable; with none named, every differing declared service that is
 * healthy below goes, and the others are listed with the reason.
 *
 * @public
 */
export function planPromotion(ladder: Ladder, request: PromotionPlanRequest): PromotionPlan {
  const index = ladder.stages.findIndex(stage => stage.name === request.toStage);
  if (index < 0) {
    return {
      allowed: false,
      refusal: 'unknown-stage',
      reason: `Unknown stage '${request.toStage}'; stages are ${ladder.stages.map(s => s.name).join(', ')}`,
      plan: [],
    };
  }
  if (index === 0) {
    return {
      allowed: false,
      refusal: 'no-stage-below',
      reason: `${request.toStage} is the first stage: there is no stage below to promote from`,
      plan: [],
    };
  }
  const source = ladder.stages[index - 1];
  const target = ladder.stages[index];

  const unknown = (request.services ?? []).filter(s => !ladder.services.includes(s));
  if (unknown.length > 0) {
    return {
      allowed: false,
      refusal: 'unknown-service',
      reason: `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a service of ${ladder.team}/${ladder.product}`,
      plan: [],
    };
  }

  const named = request.services !== undefined;
  const candidates = named
    ? [...new Set(request.services)]
    : ladder.services.filter(
        s => source.services[s]?.digest && source.services[s]?.digest !== target.services[s]?.digest,
      );
  const plan = candidates.map(service => judgeService(service, source, target));
  const included = plan.filter(entry => entry.included);
  const refused = plan.filter(entry => entry.refusal);
  const publicPlan = plan.map(({ refusal: _refusal, ...entry }) => entry);

  if ((named && refused.length > 0) || (included.length === 0 && refused.length > 0)) {
    return {
      allowed: false,
      refusal: refused[0].refusal!,
      reason: refused.map(entry => entry.reason).join('; '),
      plan: publicPlan,
    };
  }
  if (included.length === 0) {
    return {
      allowed: false,
      refusal: 'nothing-to-promote',
      reason: plan.length
        ? plan.map(entry => entry.reason).join('; ')
        : `${target.name} already carries every digest of ${source.name}`,
      plan: publicPlan,
    };
  }
  return {
    allowed: true,
    fromStage: source.name,
    toStage: target.name,
    requiresApproval: target.requiresApproval,
    services: Object.fromEntries(included.map(entry => [entry.service, entry.from!])),
    previous: Object.fromEntries(included.map(entry => [entry.service, entry.to ?? null])),
    plan: publicPlan,
  };
}

/**
 * Can this rung (or one service of it) be promoted into now, and if not, why.
 *
 * @public
 */
export function promotability(
  ladder: Ladder,
  toStage: string,
  service?: string,
): { allowed: boolean; reason: string } {
  const result = planPromotion(ladder, {
    toStage,
    services: service ? [service] : undefined,
  });
  if (!result.allowed) return { allowed: false, reason: result.reason };
  const names = Object.keys(result.services).join(', ');
  return {
    allowed: true,
    reason: `Promote ${names} from ${result.fromStage}${
      result.requiresApproval ? ' (needs a release-approver)' : ''
    }`,
  };
}
