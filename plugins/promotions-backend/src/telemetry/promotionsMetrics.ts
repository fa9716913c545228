import { Meter, MeterProvider, ObservableResult, metrics } from '@opentelemetry/api';
import type { PromotionStatus, ProvenanceState } from '@refplat/plugin-promotions-common';

/**
 * The meter's name: the instrumentation scope Backstage's MetricsService
 * gives plugin `promotions`, so the plugin's metrics sit with the catalog's
 * and the scaffolder's without depending on that alpha service.
 */
export const PROMOTIONS_METER = 'backstage-plugin-promotions';

export type PromotionKind = 'promotion' | 'rollback';
export type PromotionOutcome = Extract<PromotionStatus, 'merged' | 'closed' | 'failed'>;
export type GateDecision =
  | 'merge'
  | 'wait-for-health'
  | 'wait-for-approval'
  | 'wait-for-required-check'
  | 'close'
  | 'blocked-by-guard';
export type AutoPromoterProductOutcome = 'queued' | 'unchanged' | 'failed';

/** What a write budget says at a collection, read from memory (its window and the ledger's last answer). */
export interface WriteBudgetReading {
  remainingThisMinute: number;
  remainingThisHour: number;
  /** Until the next write may go; 0 when one may go now. */
  nextOpeningInMs: number;
}

/**
 * The last values the gauges report. Kept here, where the code that learns
 * them puts them, so that a collection reads memory and never the database
 * or GitHub.
 */
const lastSeen = {
  writeQueueDepth: undefined as number | undefined,
  /** Per GitHub host. */
  writeBudgets: new Map<string, () => WriteBudgetReading>(),
  /** Per host and rate limit resource (core, graphql...). */
  rateLimits: new Map<string, { host: string; resource: string; remaining: number }>(),
  /** Per ArgoCD instance or Kubernetes cluster. */
  healthStreams: new Map<string, boolean>(),
};

function observeGauges(meter: Meter) {
  meter
    .createObservableGauge('promotions.write_queue.depth', {
      description: "Promotions waiting in the write queue for their PR to be opened, as this process's queue last listed them",
      unit: '{promotion}',
    })
    .addCallback(result => {
      if (lastSeen.writeQueueDepth !== undefined) result.observe(lastSeen.writeQueueDepth);
    });
  const readings = (observe: (result: ObservableResult, host: string, reading: WriteBudgetReading) => void) =>
    (result: ObservableResult) => {
      for (const [host, read] of lastSeen.writeBudgets) observe(result, host, read());
    };
  meter
    .createObservableGauge('promotions.github.write_budget.remaining', {
      description: "Writes GitHub's secondary limit still allows in the sliding minute and hour, every replica's writes counted",
      unit: '{write}',
    })
    .addCallback(
      readings((result, host, reading) => {
        result.observe(reading.remainingThisMinute, { 'github.host': host, 'github.write_budget.window': 'minute' });
        result.observe(reading.remainingThisHour, { 'github.host': host, 'github.write_budget.window': 'hour' });
      }),
    );
  meter
    .createObservableGauge('promotions.github.write_budget.next_opening', {
      description: 'Seconds until the write budget lets the next write go (0: now)',
      unit: 's',
    })
    .addCallback(
      readings((result, host, reading) => result.observe(reading.nextOpeningInMs / 1000, { 'github.host': host })),
    );
  meter
    .createObservableGauge('promotions.github.rate_limit.remaining', {
      description: "Requests GitHub's rate limit still allows, from the last response's x-ratelimit-remaining",
      unit: '{request}',
    })
    .addCallback(result => {
      for (const { host, resource, remaining } of lastSeen.rateLimits.values()) {
        result.observe(remaining, { 'github.host': host, 'github.rate_limit.resource': resource });
      }
    });
  meter
    .createObservableGauge('promotions.health_stream.connected', {
      description: "Whether the Application event stream of an ArgoCD instance (or Kubernetes cluster) is connected (1) or not (0)",
      unit: '1',
    })
    .addCallback(result => {
      for (const [instance, connected] of lastSeen.healthStreams) {
        result.observe(connected ? 1 : 0, { 'health_stream.instance': instance });
      }
    });
}

function createInstruments(provider: MeterProvider) {
  const meter = provider.getMeter(PROMOTIONS_METER);
  observeGauges(meter);
  return {
    provider,
    requested: meter.createCounter('promotions.requested', {
      description: 'Promotions and rollbacks recorded by a request (a person, an action or the auto-promoter)',
      unit: '{promotion}',
    }),
    ended: meter.createCounter('promotions.ended', {
      description: 'Promotions that ended, by outcome: merged, closed or failed',
      unit: '{promotion}',
    }),
    gateDecisions: meter.createCounter('promotions.gate.decisions', {
      description: "The Gate's decision on a live promotion at each check",
      unit: '{decision}',
    }),
    openToMerge: meter.createHistogram('promotions.gate.open_to_merge.duration', {
      description: "Time from a promotion's PR opening to its merge",
      unit: 's',
      advice: { explicitBucketBoundaries: [10, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 12 * 3600, 24 * 3600, 7 * 24 * 3600] },
    }),
    provenanceVerdicts: meter.createCounter('promotions.provenance.verdicts', {
      description: "Verdicts of the provenance check on a digest, each time it asked the registry",
      unit: '{verdict}',
    }),
    autoPromoterRuns: meter.createHistogram('promotions.auto_promoter.run.duration', {
      description: "An auto-promoter run's duration",
      unit: 's',
      advice: { explicitBucketBoundaries: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] },
    }),
    autoPromoterProducts: meter.createCounter('promotions.auto_promoter.products', {
      description: 'Products the auto-promoter decided for: it queued a promotion, had none to queue, or failed',
      unit: '{product}',
    }),
  };
}

let instruments: ReturnType<typeof createInstruments> | undefined;

/**
 * The instruments of the global meter provider as it is now: `@opentelemetry/api`
 * hands out no-op instruments before a provider is set (there is no proxy for
 * metrics, as there is for tracing), so they are made on first use and again
 * if another provider was set since (a test's, or an instrumentation file
 * loaded late).
 */
function current() {
  const provider = metrics.getMeterProvider();
  if (instruments?.provider !== provider) instruments = createInstruments(provider);
  return instruments;
}

export function recordPromotionRequested(kind: PromotionKind): void {
  current().requested.add(1, { 'promotion.kind': kind });
}

export function recordPromotionEnded(kind: PromotionKind, outcome: PromotionOutcome): void {
  current().ended.add(1, { 'promotion.kind': kind, 'promotion.outcome': outcome });
}

export function recordGateDecision(decision: GateDecision): void {
  current().gateDecisions.add(1, { 'gate.decision': decision });
}

export function recordOpenToMerge(seconds: number, how: { kind: PromotionKind; mergedBy: 'gate' | 'github' }): void {
  current().openToMerge.record(seconds, { 'promotion.kind': how.kind, 'promotion.merged_by': how.mergedBy });
}

export function recordWriteQueueDepth(waiting: number): void {
  current();
  lastSeen.writeQueueDepth = waiting;
}

/** `read` is called at each collection: it must answer from memory. The host's latest budget replaces an earlier one. */
export function observeWriteBudget(host: string, read: () => WriteBudgetReading): void {
  current();
  lastSeen.writeBudgets.set(host, read);
}

export function recordGithubRateLimit(host: string, resource: string, remaining: number): void {
  current();
  lastSeen.rateLimits.set(`${host} ${resource}`, { host, resource, remaining });
}

export function recordHealthStreamConnected(instance: string, connected: boolean): void {
  current();
  lastSeen.healthStreams.set(instance, connected);
}

export function recordProvenanceVerdict(verdict: ProvenanceState): void {
  current().provenanceVerdicts.add(1, { 'provenance.verdict': verdict });
}

export function recordAutoPromoterRun(seconds: number): void {
  current().autoPromoterRuns.record(seconds);
}

export function recordAutoPromoterProduct(outcome: AutoPromoterProductOutcome): void {
  current().autoPromoterProducts.add(1, { 'auto_promoter.outcome': outcome });
}
