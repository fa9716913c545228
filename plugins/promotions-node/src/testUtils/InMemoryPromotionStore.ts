import { PROMOTION_TRANSITIONS, isLivePromotion } from '@refplat/plugin-promotions-common';
import type { PromotionEvent } from '@refplat/plugin-promotions-common';
import {
  Clock,
  systemClock,
  NewPromotion,
  OpenPromotionConflictError,
  PromotionChanges,
  PromotionEventInput,
  PromotionExpectation,
  PromotionRecord,
  PromotionStore,
  TransitionDecider,
} from '@refplat/plugin-promotions-node';

/** A value as JSON with every object's keys in order: equal values, equal text, however they were built. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, field) =>
    field && typeof field === 'object' && !Array.isArray(field)
      ? Object.fromEntries(Object.entries(field).sort(([a], [b]) => (a < b ? -1 : 1)))
      : field,
  );
}

/**
 * A field the expectation requires unset (`null`), equal to a value (a verdict: equal in every
 * field, as the database store compares its stored JSON), or does not look at (`undefined`).
 */
function matchesNullable<T>(actual: T | undefined, expected: T | null | undefined): boolean {
  if (expected === undefined) return true;
  return expected === null ? actual === undefined : canonicalJson(actual) === canonicalJson(expected);
}

function meets(record: PromotionRecord, expected: PromotionExpectation): boolean {
  if (expected.status && !expected.status.includes(record.status)) return false;
  if (expected.noPullRequest && record.pullRequest.number) return false;
  if (expected.queued !== undefined && Boolean(record.queuedAt) !== expected.queued) return false;
  if (expected.leaseEndedBy !== undefined && record.leaseExpiresAt && record.leaseExpiresAt > expected.leaseEndedBy) {
    return false;
  }
  return (
    matchesNullable(record.healthState, expected.healthState) &&
    matchesNullable(record.headSha, expected.headSha) &&
    matchesNullable(record.approvedSha, expected.approvedSha) &&
    matchesNullable(record.guardState, expected.guardState)
  );
}

/** `changes` applied as the database store applies them: a key present with `undefined` clears its field. */
function applied(record: PromotionRecord, changes: PromotionChanges, now: string): PromotionRecord {
  const next: PromotionRecord = { ...record, updatedAt: now };
  if (changes.status !== undefined) next.status = changes.status;
  if (changes.pullRequest) next.pullRequest = { ...changes.pullRequest };
  if (changes.branch !== undefined) next.branch = changes.branch;
  const clearable = [
    'statusReason',
    'approvedBy',
    'approvedSha',
    'healthState',
    'headSha',
    'leaseExpiresAt',
    'queuedAt',
    'guardState',
    'guardOverride',
    'rejection',
  ] as const;
  for (const key of clearable) {
    if (key in changes) (next as any)[key] = changes[key];
  }
  return next;
}

/**
 * An in-memory `PromotionStore` with the database store's semantics: one
 * live promotion per target stage, compare-and-set transitions, an event
 * per transition, `decideTransition` one at a time. Times come from `clock`.
 * Records handed out are copies: changing one changes nothing stored.
 *
 * @public
 */
export class InMemoryPromotionStore implements PromotionStore {
  private readonly records = new Map<string, { record: PromotionRecord; live: boolean; order: number }>();
  private readonly events = new Map<string, PromotionEvent[]>();
  private inserted = 0;

  constructor(private readonly options: { clock?: Clock } = {}) {}

  private now(): string {
    return (this.options.clock ?? systemClock).now().toISOString();
  }

  async insertLive(
    promotion: NewPromotion,
    actor: string,
    supersedes?: { id: string; reason: string },
  ): Promise<{ record: PromotionRecord; superseded?: PromotionRecord }> {
    if (this.records.has(promotion.id)) throw new Error(`Promotion ${promotion.id} exists already`);
    const holder = [...this.records.values()].find(
      ({ record, live }) =>
        live &&
        record.id !== supersedes?.id &&
        record.team === promotion.team &&
        record.product === promotion.product &&
        record.toStage === promotion.toStage,
    );
    if (holder) throw new OpenPromotionConflictError(structuredClone(holder.record));
    const now = this.now();
    let superseded: PromotionRecord | undefined;
    const old = supersedes && this.records.get(supersedes.id);
    if (old?.live) {
      old.record = applied(old.record, { status: PROMOTION_TRANSITIONS.superseded.to, statusReason: supersedes!.reason }, now);
      old.live = false;
      this.addEvent(old.record.id, { type: 'superseded', actor, detail: supersedes!.reason }, now);
      superseded = structuredClone(old.record);
    }
    const record: PromotionRecord = {
      ...structuredClone(promotion),
      previousServices: promotion.previousServices ?? {},
      kind: promotion.kind ?? 'promotion',
      pullRequest: { number: 0, url: '' },
      createdAt: now,
      updatedAt: now,
    };
    this.records.set(record.id, { record, live: true, order: this.inserted++ });
    this.addEvent(record.id, { type: 'requested', actor, detail: JSON.stringify(promotion.services) }, now);
    return { record: structuredClone(record), superseded };
  }

  async get(id: string): Promise<PromotionRecord | undefined> {
    const entry = this.records.get(id);
    return entry && structuredClone(entry.record);
  }

  async findLive(team: string, product: string, toStage: string): Promise<PromotionRecord | undefined> {
    return this.newestFirst().find(
      ({ record, live }) => live && record.team === team && record.product === product && record.toStage === toStage,
    )?.record;
  }

  async findByBranch(branch: string): Promise<PromotionRecord | undefined> {
    return this.newestFirst().find(({ record }) => record.branch === branch)?.record;
  }

  async listLive(): Promise<PromotionRecord[]> {
    return this.newestFirst()
      .filter(entry => entry.live)
      .reverse()
      .map(entry => entry.record);
  }

  async listForProduct(team: string, product: string, limit: number): Promise<PromotionRecord[]> {
    return this.newestFirst()
      .filter(({ record }) => record.team === team && record.product === product)
      .slice(0, limit)
      .map(entry => entry.record);
  }

  async transition(
    id: string,
    expected: PromotionExpectation,
    changes: PromotionChanges,
    event?: PromotionEventInput,
  ): Promise<PromotionRecord | undefined> {
    const entry = this.records.get(id);
    if (!entry || !meets(entry.record, expected)) return undefined;
    this.apply(entry, changes, event);
    return structuredClone(entry.record);
  }

  async decideTransition(id: string, decide: TransitionDecider): Promise<PromotionRecord | undefined> {
    const entry = this.records.get(id);
    if (!entry) return undefined;
    const decision = decide(structuredClone(entry.record), structuredClone(this.events.get(id) ?? []));
    if (!decision) return undefined;
    this.apply(entry, decision.changes, decision.event);
    return structuredClone(entry.record);
  }

  async listEvents(id: string): Promise<PromotionEvent[]> {
    return structuredClone(this.events.get(id) ?? []);
  }

  private apply(
    entry: { record: PromotionRecord; live: boolean },
    changes: PromotionChanges,
    event: PromotionEventInput | undefined,
  ) {
    const now = this.now();
    entry.record = applied(entry.record, changes, now);
    // As the database's open key: a promotion stops being live once, and for good.
    if (changes.status !== undefined && !isLivePromotion(changes.status)) entry.live = false;
    if (event) this.addEvent(entry.record.id, event, now);
  }

  private addEvent(id: string, event: PromotionEventInput, at: string) {
    const trail = this.events.get(id) ?? [];
    trail.push({ promotionId: id, type: event.type, actor: event.actor, at, detail: event.detail });
    this.events.set(id, trail);
  }

  /** Copies, newest first (by creation time, then by insertion). */
  private newestFirst() {
    return [...this.records.values()]
      .sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt) || b.order - a.order)
      .map(entry => ({ ...entry, record: structuredClone(entry.record) }));
  }
}
