import { healthySinceKey, soakRemaining } from './soak';
import { notHealthyReason } from '../promotions/sourceRun';
import { actorNameWithoutCatalog } from '../people/actorNames';
import { formatSeconds } from '../argo/canaryState';
import type { Ladder, LadderStage } from '../ladder/types';
import type { PromotionStatus } from '../promotions/types';
import type { AutoDecisionKind, Hold } from './types';
import { walkLimit } from './walkable';

/**
 * The auto-promoter's rule ("Reconciler 1"): each run, for every Product,
 * walk the adjacent stage pairs below the first approval stage and move a
 * digest one rung up only when the stage below really runs it healthy (and
 * has soaked there long enough). Pure: the caller reads the ladder, holds,
 * soak settings and live promotions, and opens the promotions this returns.
 */

/** @public */
export interface AutoPromoteContext {
  /** Live holds of this product. */
  holds: Hold[];
  /** stage → minimum seconds a digest must have been healthy there before it may leave (absent = 0). */
  soakSeconds: Record<string, number>;
  /**
   * `healthySinceKey(stage, service, digest)` → ISO time since when it has been
   * continuously healthy (absent = unknown: the soak is treated as not
   * elapsed when one is configured).
   */
  healthySince: Record<string, string>;
  /** Live promotions of this product (status open | awaiting-approval | approved). */
  livePromotions: Array<{ toStage: string; services: Record<string, string> }>;
  now: Date;
}

/** @public */
export interface AutoDecision {
  fromStage: string;
  toStage: string;
  service: string;
  decision: AutoDecisionKind;
  /** A sentence a developer understands. */
  reason: string;
  /** The source digest considered. */
  digest?: string;
  /** Set when the decision is a skip because the source is still soaking. */
  soakRemainingSeconds?: number;
}

/** @public */
export interface AutoPromotionPlan {
  /** One per (adjacent pair, service that exists in either stage), in ladder order. */
  decisions: AutoDecision[];
  /**
   * The 'promote' decisions grouped, one per target stage, in the order to open
   * them: the upper rung first. A rung's PR carries its source's digest, and the
   * rung below, once merged, moves that source on: opened first, the lower PR
   * could merge first and leave the upper one to be closed (two more writes).
   */
  promotions: Array<{ fromStage: string; toStage: string; services: string[] }>;
}

/** Statuses of a promotion that is still in flight: the auto-promoter must not supersede it. */
const LIVE_STATUSES: ReadonlySet<PromotionStatus> = new Set<PromotionStatus>([
  'open',
  'awaiting-approval',
  'approved',
]);

/**
 * The pairs the auto-promoter walks: (i-1 → i) for every stage i below the
 * first approval stage. Never into an approval stage, never past it.
 */
function walkablePairs(ladder: Ladder): Array<[LadderStage, LadderStage]> {
  const limit = walkLimit(ladder.stages);
  const pairs: Array<[LadderStage, LadderStage]> = [];
  for (let i = 1; i < limit; i++) pairs.push([ladder.stages[i - 1], ladder.stages[i]]);
  return pairs;
}

/** Services either stage mentions (a cell, or a declaration), ladder order first. */
function pairServices(ladder: Ladder, source: LadderStage, target: LadderStage): string[] {
  const mentioned = new Set<string>([
    ...Object.keys(source.services),
    ...Object.keys(target.services),
    ...source.environment.declaredServices,
    ...target.environment.declaredServices,
  ]);
  const ordered = ladder.services.filter(service => mentioned.has(service));
  const rest = [...mentioned].filter(service => !ladder.services.includes(service));
  return [...ordered, ...rest];
}

function decide(
  ladder: Ladder,
  source: LadderStage,
  target: LadderStage,
  service: string,
  context: AutoPromoteContext,
  liveTargets: ReadonlySet<string>,
): AutoDecision {
  const from = source.name;
  const to = target.name;
  const base = { fromStage: from, toStage: to, service };
  const skip = (reason: string, extra: Partial<AutoDecision> = {}): AutoDecision => ({
    ...base,
    decision: 'skip',
    reason,
    ...extra,
  });

  // Without the Release records the rung cannot be judged at all.
  if (source.release.error) {
    return skip(`${from}'s Release could not be read: ${source.release.error}`);
  }
  const cell = source.services[service];
  const digest = cell?.digest;
  if (!digest) return skip(`${service} is not released in ${from}`);
  if (target.release.error) {
    return skip(`${to}'s Release could not be read: ${target.release.error}`, { digest });
  }
  const current = target.services[service]?.digest;
  if (current === digest) return skip(`${to} already carries it`, { digest });

  if (target.environment.error) {
    return skip(`${to}'s Environment could not be read: ${target.environment.error}`, { digest });
  }
  if (!target.environment.declaredServices.includes(service)) {
    return {
      ...base,
      decision: 'refuse',
      reason: `${to}'s Environment does not declare ${service}`,
      digest,
    };
  }

  // How the ladder judged the offered digest against the target's (absent: not judged).
  const age = target.services[service]?.incomingAge;
  if (age?.age === 'older') {
    return skip(`would be a downgrade: ${age.reason}; only a person rolls ${to} back`, { digest });
  }

  const hold = context.holds.find(h => h.stage === to && h.service === service);
  if (hold) return skip(`held in ${to}: ${hold.reason} (by ${actorNameWithoutCatalog(hold.placedBy)})`, { digest });

  if (liveTargets.has(to)) return skip(`a promotion into ${to} is already open`, { digest });

  if (!cell.healthy || ladder.healthError) {
    // A cell judged healthy while some Applications could not be listed is not known to be healthy.
    const reason = cell.healthy
      ? notHealthyReason(service, from, 'unknown', ladder.healthError)
      : notHealthyReason(service, from, cell.verdict, cell.reasons[0] ?? ladder.healthError);
    return skip(reason, { digest });
  }

  const remaining = soakRemaining(from, service, digest, context);
  if (remaining > 0) {
    const soak = context.soakSeconds[from];
    const known = context.healthySince[healthySinceKey(from, service, digest)] !== undefined;
    return skip(
      `soaking in ${from}: ${formatSeconds(remaining)} left of ${formatSeconds(soak)}${
        known ? '' : ` (not yet known since when it is healthy in ${from})`
      }`,
      { digest, soakRemainingSeconds: remaining },
    );
  }

  // "Older" only when the history said so: a digest is not old for being different.
  let replaced = 'another digest';
  if (!current) replaced = 'none yet';
  else if (age?.age === 'newer') replaced = 'an older digest';
  return {
    ...base,
    decision: 'promote',
    reason: `${from} runs it healthy; ${to} has ${replaced}`,
    digest,
  };
}

/**
 * Decides, from the ladder as read at the start of the run, what the
 * auto-promoter does on each rung below the first approval stage. Every
 * pair is judged on that one snapshot, so a digest climbs at most one rung
 * per run: promoting dev's digest into test in this run never carries it
 * on into uat in the same run.
 *
 * @public
 */
export function decideAutoPromotions(
  ladder: Ladder,
  context: AutoPromoteContext,
): AutoPromotionPlan {
  // A person's promotion still in flight is never superseded; the ladder's
  // own list of promotions counts too, in case the caller's is stale.
  const liveTargets = new Set<string>([
    ...context.livePromotions.map(p => p.toStage),
    ...ladder.promotions.filter(p => LIVE_STATUSES.has(p.status)).map(p => p.toStage),
  ]);

  const decisions: AutoDecision[] = [];
  const promotions: AutoPromotionPlan['promotions'] = [];
  for (const [source, target] of walkablePairs(ladder)) {
    const promoted: string[] = [];
    for (const service of pairServices(ladder, source, target)) {
      const decision = decide(ladder, source, target, service, context, liveTargets);
      decisions.push(decision);
      if (decision.decision === 'promote') promoted.push(service);
    }
    if (promoted.length) {
      promotions.unshift({ fromStage: source.name, toStage: target.name, services: promoted });
    }
  }
  return { decisions, promotions };
}
