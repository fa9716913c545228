import { formatSeconds } from '../argo/canaryState';
import type { ServiceHealthCheck } from '../health/serviceHealth';
import type { LadderServiceCell } from '../ladder/types';
import { shortDigest } from '../names';
import { actorNameWithoutCatalog } from '../people/actorNames';
import { isLivePromotion } from '../promotions/livePromotion';
import type { NamedGuardVerdict } from '../guards/types';
import type { PromotionChecklistItem } from './checklistItem';

/**
 * "Why can't I promote?" — every gate between a service's cell in the stage below and the cell
 * it would be promoted into, each with its state, for the ladder UI.
 */

/** @public */
export interface PromotionChecklistContext {
  fromStage: string;
  toStage: string;
  requiresApproval: boolean;
  /** Group refs whose members may approve promotions into approval stages. */
  approvers: string[];
  /** A promotion into `toStage` that is still in flight. */
  openPromotion?: { pullRequestUrl?: string; status: string };
  /** Each promotion guard's verdict on a promotion into `toStage`. */
  guards?: NamedGuardVerdict[];
}

function short(digest: string): string {
  const s = shortDigest(digest);
  return s.length < digest.length ? `${s}…` : s;
}

function sameDigest(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * Each gate in a fixed order: declared, released, health, running-digest, soak, hold,
 * policy (one per guard), open-promotion, approval, carried. The promotion can go ahead when every item is ok.
 *
 * Health and the running digest come from `source.checks` when present (every check but
 * `image` is health; `image` is the running digest), else from `healthy`/`reasons` and
 * `runningDigests`.
 *
 * @public
 */
export function promotionChecklist(
  source: LadderServiceCell | undefined,
  target: LadderServiceCell | undefined,
  context: PromotionChecklistContext,
): PromotionChecklistItem[] {
  const { fromStage: from, toStage: to } = context;
  const digest = source?.digest;
  const items: PromotionChecklistItem[] = [];

  // declared: the target's Environment must declare the service.
  items.push(
    target?.declared
      ? {
          gate: 'declared',
          ok: true,
          detail: `${to}'s Environment declares it`,
        }
      : {
          gate: 'declared',
          ok: false,
          detail: `${to}'s Environment does not declare it: add the service to ${to}'s Environment first`,
        },
  );

  // released: there must be something to promote.
  items.push(
    digest
      ? {
          gate: 'released',
          ok: true,
          detail: `Released in ${from}: ${short(digest)}`,
        }
      : {
          gate: 'released',
          ok: false,
          detail: `Not released in ${from}: nothing to promote`,
        },
  );

  // health and running digest in the source stage.
  items.push(healthItem(source, from));
  items.push(runningDigestItem(source, from));

  // soak: the digest must have been healthy in the source long enough.
  const soak = source?.soakRemainingSeconds;
  items.push(
    soak !== undefined && soak > 0
      ? {
          gate: 'soak',
          ok: false,
          detail: `Soaking in ${from}: ${formatSeconds(soak)} left`,
        }
      : {
          gate: 'soak',
          ok: true,
          detail:
            soak === undefined
              ? `No soak time to wait for in ${from}`
              : `Soaked in ${from}`,
        },
  );

  // hold: a person keeps promotions out of the target.
  const hold = target?.hold;
  items.push(
    hold
      ? {
          gate: 'hold',
          ok: false,
          detail: `Held in ${to} by ${actorNameWithoutCatalog(hold.placedBy)} since ${hold.placedAt}: ${hold.reason}`,
        }
      : { gate: 'hold', ok: true, detail: `No hold in ${to}` },
  );

  // policy: each guard's verdict; needing an approval does not stop a request.
  for (const guard of context.guards ?? []) {
    items.push({ gate: 'policy', ok: guard.verdict !== 'block', detail: `${guard.guard}: ${guard.reason}` });
  }

  // open-promotion: one promotion into a stage at a time.
  const open = context.openPromotion;
  items.push(
    open && isLivePromotion(open.status)
      ? {
          gate: 'open-promotion',
          ok: false,
          detail: `A promotion into ${to} is already ${open.status}${open.pullRequestUrl ? `: ${open.pullRequestUrl}` : ''}`,
        }
      : {
          gate: 'open-promotion',
          ok: true,
          detail: `No promotion into ${to} in flight`,
        },
  );

  // approval: informational.
  let approval = `${to} merges automatically once the checks pass`;
  if (context.requiresApproval) {
    approval = context.approvers.length
      ? `${to} needs a release-approver: members of ${context.approvers.map(actorNameWithoutCatalog).join(', ')}`
      : `${to} needs a release-approver, but no approver group is configured`;
  }
  items.push({ gate: 'approval', ok: true, detail: approval });

  // carried: the target must not already have the digest.
  const current = target?.digest;
  items.push(
    digest && current && sameDigest(digest, current)
      ? {
          gate: 'carried',
          ok: false,
          detail: `${to} already carries ${short(digest)}: nothing to promote`,
        }
      : {
          gate: 'carried',
          ok: true,
          detail: current
            ? `${to} has ${short(current)}${digest ? `; the promotion writes ${short(digest)}` : ''}`
            : `${to} has no digest yet`,
        },
  );

  return items;
}

function failing(checks: ServiceHealthCheck[]): ServiceHealthCheck[] {
  return checks.filter(c => c.ok !== true);
}

function healthItem(
  source: LadderServiceCell | undefined,
  from: string,
): PromotionChecklistItem {
  if (!source?.digest) {
    return { gate: 'health', ok: false, detail: `Not running in ${from}` };
  }
  if (source.checks && source.checks.length) {
    const health = source.checks.filter(c => c.id !== 'image');
    const bad = failing(health);
    if (bad.length === 0) {
      return {
        gate: 'health',
        ok: true,
        detail: `Synced and Healthy in ${from}`,
      };
    }
    return {
      gate: 'health',
      ok: false,
      detail: `Not healthy in ${from}: ${bad.map(c => c.detail).join('; ')}`,
    };
  }
  if (source.healthy) {
    return { gate: 'health', ok: true, detail: `Healthy in ${from}` };
  }
  return {
    gate: 'health',
    ok: false,
    detail: `${source.verdict === 'unknown' ? 'Health unknown' : 'Not healthy'} in ${from}${source.reasons.length ? `: ${source.reasons.join('; ')}` : ''}`,
  };
}

function runningDigestItem(
  source: LadderServiceCell | undefined,
  from: string,
): PromotionChecklistItem {
  const digest = source?.digest;
  if (!source || !digest) {
    return {
      gate: 'running-digest',
      ok: false,
      detail: `Nothing released in ${from} to run`,
    };
  }
  const image = source.checks?.find(c => c.id === 'image');
  if (image) {
    return {
      gate: 'running-digest',
      ok: image.ok === true,
      detail: image.detail,
    };
  }
  const runs = source.runningDigests.some(d => sameDigest(d, digest));
  return runs
    ? {
        gate: 'running-digest',
        ok: true,
        detail: `${from} runs the released ${short(digest)}`,
      }
    : {
        gate: 'running-digest',
        ok: false,
        detail: `${from} runs ${source.runningDigests.length ? source.runningDigests.map(short).join(', ') : 'no reported digest'}, not the released ${short(digest)}`,
      };
}
