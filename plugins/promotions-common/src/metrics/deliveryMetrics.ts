import { quantile } from './quantile';

/**
 * A Service's digest arriving in a stage's Release record: one row of a per-digest timeline.
 *
 * @public
 */
export interface DigestArrival {
  team: string;
  product: string;
  stage: string;
  service: string;
  digest: string;
  /** When the commit that brought it landed on the platform branch (ISO 8601). */
  at: string;
  /** The platform-branch commit that changed the Release record. */
  commit: string;
  /** The Release PR merged by that commit, when its message names one. */
  pullRequest?: number;
  /** The plugin's promotion that opened that PR; absent for a PR merged outside the plugin. */
  promotionId?: string;
  /**
   * True when the commit created the stage's Release record (GitHub's file
   * status `added`): the Product being onboarded there, not a deployment.
   */
  onboarding?: boolean;
}

/**
 * Count, median and 90th percentile of durations in milliseconds.
 *
 * @public
 */
export interface DurationStats {
  samples: number;
  medianMs?: number;
  p90Ms?: number;
}

/**
 * The delivery metrics of a window (see computeDeliveryMetrics for the definitions).
 *
 * @public
 */
export interface DeliveryMetrics {
  from: string;
  to: string;
  /** Per stage, in ladder order. */
  deploymentFrequency: Array<{ stage: string; deployments: number; perWeek: number }>;
  leadTime: DurationStats & {
    rungs: Array<DurationStats & { fromStage: string; toStage: string }>;
  };
  changeFailureRate: {
    changes: number;
    failures: number;
    rollbacks: number;
    fixForwards: number;
    /** failures / changes; absent without changes. */
    rate?: number;
  };
  timeToRestore: DurationStats;
}

/**
 * What computeDeliveryMetrics needs.
 *
 * @public
 */
export interface MetricsInput {
  /** Every known arrival of the Products in scope, whatever its time: a lead time looks back before the window. */
  arrivals: DigestArrival[];
  /** Ladder order; the first is where lead time starts, the last is prod. */
  stages: string[];
  /** Half-open window [from, to). */
  from: Date;
  to: Date;
  /** How soon a later prod change makes a change a failure. */
  failureWindowMs: number;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Whole milliseconds: interpolation must not leak float noise (0.7 × 14 h) into the answer. */
function roundedQuantile(sorted: number[], q: number): number | undefined {
  const value = quantile(sorted, q);
  return value === undefined ? undefined : Math.round(value);
}

function stats(durations: number[]): DurationStats {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    medianMs: roundedQuantile(sorted, 0.5),
    p90Ms: roundedQuantile(sorted, 0.9),
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

const serviceKey = (a: DigestArrival) => `${a.team}/${a.product}/${a.service}`;
const time = (a: DigestArrival) => Date.parse(a.at);

/** A digest's first arrival in a stage. */
interface FirstArrival {
  at: number;
  onboarding: boolean;
}

/**
 * Delivery metrics (DORA) from the Release records' history. Definitions:
 * - Deployment frequency of a stage: the commits that changed at least one
 *   digest in a Product's Release record of that stage (a merged promotion,
 *   a rollback, a CI push to the first stage, a PR merged by hand), counted
 *   once per Product and commit, in the window, per 7 days of the window.
 * - Lead time: for each digest whose first arrival in the last stage (prod)
 *   is in the window, that arrival minus its first arrival in the first
 *   stage (digests never seen in the first stage are left out). A rung
 *   (stage N-1 → N) is the same between first arrivals in those two stages,
 *   counted where the arrival in stage N is in the window.
 * - Change failure rate: a change is a digest arriving in a Service's prod
 *   that had never been there before, in the window. It failed when the
 *   next prod change of that Service comes within the failure window: a
 *   rollback (a digest that had been in that prod before) or a fix-forward
 *   (one that had not). Rollbacks are not changes themselves.
 * - Time to restore: for each failed change, its arrival to the arrival
 *   (merge) of the rollback or fix that replaced it.
 * An onboarding arrival (the commit created the stage's Release record) is
 * history, not delivery: it is no deployment, ends no lead time or rung (a
 * digest first seen in a stage through its onboarding has none there), is
 * no prod change and replaces none; but its digest had been in that prod (so
 * returning to it is a rollback), and a digest onboarded in the first stage
 * starts its lead time there when it later climbs.
 * Medians and 90th percentiles interpolate linearly (see `quantile`).
 *
 * @public
 */
export function computeDeliveryMetrics(input: MetricsInput): DeliveryMetrics {
  const { stages, from, to, failureWindowMs } = input;
  const arrivals = [...input.arrivals].sort((a, b) => time(a) - time(b));
  const inWindow = (ms: number) => ms >= from.getTime() && ms < to.getTime();
  const weeks = (to.getTime() - from.getTime()) / WEEK_MS;

  const deploymentFrequency = stages.map(stage => {
    const commits = new Set(
      arrivals
        .filter(a => a.stage === stage && !a.onboarding && inWindow(time(a)))
        .map(a => `${a.team}/${a.product}@${a.commit}`),
    );
    return { stage, deployments: commits.size, perWeek: weeks > 0 ? commits.size / weeks : 0 };
  });

  // First arrival of each digest in each stage.
  const firsts = new Map<string, Map<string, FirstArrival>>();
  for (const a of arrivals) {
    const key = `${serviceKey(a)}@${a.digest}`;
    const byStage = firsts.get(key) ?? new Map<string, FirstArrival>();
    if (!byStage.has(a.stage)) byStage.set(a.stage, { at: time(a), onboarding: a.onboarding === true });
    firsts.set(key, byStage);
  }
  const between = (lower: string, upper: string) => {
    const durations: number[] = [];
    for (const byStage of firsts.values()) {
      const start = byStage.get(lower);
      const end = byStage.get(upper);
      if (start && end && !end.onboarding && inWindow(end.at) && end.at >= start.at) {
        durations.push(end.at - start.at);
      }
    }
    return stats(durations);
  };
  const prod = stages[stages.length - 1];
  const rungs = stages.slice(1).map((toStage, i) => ({
    fromStage: stages[i],
    toStage,
    ...between(stages[i], toStage),
  }));

  let changes = 0;
  let rollbacks = 0;
  let fixForwards = 0;
  const restores: number[] = [];
  for (const history of groupBy(arrivals.filter(a => a.stage === prod), serviceKey).values()) {
    const seen = new Set<string>();
    for (const [i, arrival] of history.entries()) {
      const isChange = !seen.has(arrival.digest) && !arrival.onboarding;
      seen.add(arrival.digest);
      if (!isChange || !inWindow(time(arrival))) continue;
      changes += 1;
      const next = history[i + 1];
      // A Release record created again (removed, then onboarded anew) repairs nothing.
      if (!next || next.onboarding || time(next) - time(arrival) > failureWindowMs) continue;
      if (seen.has(next.digest)) rollbacks += 1;
      else fixForwards += 1;
      restores.push(time(next) - time(arrival));
    }
  }
  const failures = rollbacks + fixForwards;

  return {
    from: from.toISOString(),
    to: to.toISOString(),
    deploymentFrequency,
    leadTime: { ...between(stages[0], prod), rungs },
    changeFailureRate: {
      changes,
      failures,
      rollbacks,
      fixForwards,
      rate: changes > 0 ? failures / changes : undefined,
    },
    timeToRestore: stats(restores),
  };
}
