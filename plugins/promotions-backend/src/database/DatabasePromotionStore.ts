import {
  DatabaseService,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import { Knex } from 'knex';
import { PROMOTION_TRANSITIONS, PromotionEvent, PromotionEventType, PromotionStatus } from '@refplat/plugin-promotions-common';
import {
  LIVE_STATUSES,
  NewPromotion,
  OpenPromotionConflictError,
  PromotionChanges,
  PromotionEventInput,
  PromotionExpectation,
  PromotionRecord,
  PromotionStore,
  PublishedGuardVerdicts,
  PublishedVerdict,
  TransitionDecider,
} from './PromotionStore';

const MIGRATIONS_DIR = resolvePackagePath(
  '@refplat/plugin-promotions-backend',
  'migrations',
);

/** The plugin's knex client with its migrations applied. */
export async function migratedClient(database: DatabaseService): Promise<Knex> {
  const client = await database.getClient();
  if (!database.migrations?.skip) {
    await client.migrate.latest({ directory: MIGRATIONS_DIR });
  }
  return client;
}

type Row = {
  id: string;
  team: string;
  product: string;
  from_stage: string;
  to_stage: string;
  services: string;
  previous_services: string;
  fingerprint: string;
  kind: string;
  status: string;
  status_reason: string | null;
  requested_by: string;
  approved_by: string | null;
  approved_sha: string | null;
  pr_number: number | null;
  pr_url: string | null;
  branch: string | null;
  base_blob_sha: string | null;
  health_state: string | null;
  head_sha: string | null;
  lease_expires_at: string | null;
  queued_at: string | null;
  guard_state: string | null;
  guard_override: string | null;
  rejection: string | null;
  open_key: string | null;
  created_at: string;
  updated_at: string;
};

/**
 * A verdict as its column holds it: JSON with its fields in one order, so that a compare-and-set
 * matches the stored text exactly (migration 20261214000000_published_verdicts writes the same).
 */
function verdictJson(verdict: PublishedVerdict): string {
  return JSON.stringify({ state: verdict.state, sha: verdict.sha, description: verdict.description });
}

/** The guards' verdicts as their column holds them: by guard name, in name order. */
function guardVerdictsJson(verdicts: PublishedGuardVerdicts): string {
  const names = Object.keys(verdicts).sort();
  return `{${names.map(name => `${JSON.stringify(name)}:${verdictJson(verdicts[name])}`).join(',')}}`;
}

function openKey(team: string, product: string, toStage: string) {
  return `${team}/${product}/${toStage}`;
}

function toRecord(row: Row): PromotionRecord {
  return {
    id: row.id,
    team: row.team,
    product: row.product,
    fromStage: row.from_stage,
    toStage: row.to_stage,
    services: JSON.parse(row.services),
    previousServices: JSON.parse(row.previous_services),
    fingerprint: row.fingerprint,
    kind: row.kind as PromotionRecord['kind'],
    status: row.status as PromotionStatus,
    statusReason: row.status_reason ?? undefined,
    requestedBy: row.requested_by,
    approvedBy: row.approved_by ?? undefined,
    approvedSha: row.approved_sha ?? undefined,
    pullRequest: { number: row.pr_number ?? 0, url: row.pr_url ?? '' },
    branch: row.branch ?? undefined,
    baseBlobSha: row.base_blob_sha ?? undefined,
    healthState: row.health_state ? JSON.parse(row.health_state) : undefined,
    headSha: row.head_sha ?? undefined,
    leaseExpiresAt: row.lease_expires_at ?? undefined,
    queuedAt: row.queued_at ?? undefined,
    guardState: row.guard_state ? JSON.parse(row.guard_state) : undefined,
    guardOverride: row.guard_override ? JSON.parse(row.guard_override) : undefined,
    rejection: row.rejection ? JSON.parse(row.rejection) : undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The row columns for `changes`; a key present with `undefined` clears the column. */
function toRowChanges(changes: PromotionChanges, now: string): Partial<Row> {
  const row: Partial<Row> = { updated_at: now };
  if (changes.status !== undefined) {
    row.status = changes.status;
    if (!LIVE_STATUSES.includes(changes.status)) row.open_key = null;
  }
  if ('statusReason' in changes) row.status_reason = changes.statusReason ?? null;
  if ('approvedBy' in changes) row.approved_by = changes.approvedBy ?? null;
  if ('approvedSha' in changes) row.approved_sha = changes.approvedSha ?? null;
  if (changes.pullRequest) {
    row.pr_number = changes.pullRequest.number;
    row.pr_url = changes.pullRequest.url;
  }
  if (changes.branch !== undefined) row.branch = changes.branch;
  if ('healthState' in changes) row.health_state = changes.healthState ? verdictJson(changes.healthState) : null;
  if ('headSha' in changes) row.head_sha = changes.headSha ?? null;
  if ('leaseExpiresAt' in changes) row.lease_expires_at = changes.leaseExpiresAt ?? null;
  if ('queuedAt' in changes) row.queued_at = changes.queuedAt ?? null;
  if ('guardState' in changes) row.guard_state = changes.guardState ? guardVerdictsJson(changes.guardState) : null;
  if ('guardOverride' in changes) {
    row.guard_override = changes.guardOverride ? JSON.stringify(changes.guardOverride) : null;
  }
  if ('rejection' in changes) row.rejection = changes.rejection ? JSON.stringify(changes.rejection) : null;
  return row;
}

function whereNullable(query: Knex.QueryBuilder, column: string, value: string | null | undefined) {
  if (value === undefined) return;
  if (value === null) query.whereNull(column);
  else query.where(column, value);
}

/** The WHERE clauses of a compare-and-set. */
function applyExpectation(query: Knex.QueryBuilder, expected: PromotionExpectation) {
  if (expected.status) query.whereIn('status', expected.status);
  if (expected.noPullRequest) query.whereNull('pr_number');
  if (expected.leaseEndedBy !== undefined) {
    const by = expected.leaseEndedBy;
    query.where(q => q.whereNull('lease_expires_at').orWhere('lease_expires_at', '<=', by));
  }
  if (expected.queued !== undefined) {
    if (expected.queued) query.whereNotNull('queued_at');
    else query.whereNull('queued_at');
  }
  whereNullable(query, 'health_state', expected.healthState && verdictJson(expected.healthState));
  whereNullable(query, 'head_sha', expected.headSha);
  whereNullable(query, 'approved_sha', expected.approvedSha);
  whereNullable(query, 'guard_state', expected.guardState && guardVerdictsJson(expected.guardState));
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed|duplicate key/i.test(e?.message ?? '')
  );
}

async function insertEvent(db: Knex, id: string, event: PromotionEventInput, at: string) {
  await db('promotion_events').insert({
    promotion_id: id,
    type: event.type,
    actor: event.actor,
    at,
    detail: event.detail ?? null,
  });
}

async function readEvents(db: Knex, id: string): Promise<PromotionEvent[]> {
  const rows = await db('promotion_events').where({ promotion_id: id }).orderBy('id', 'asc');
  return rows.map(
    (row: { promotion_id: string; type: string; actor: string; at: string; detail: string | null }) => ({
      promotionId: row.promotion_id,
      type: row.type as PromotionEventType,
      actor: row.actor,
      at: row.at,
      detail: row.detail ?? undefined,
    }),
  );
}

/** Promotions in the plugin's own database (SQLite or PostgreSQL) via knex. */
export class DatabasePromotionStore implements PromotionStore {
  static async create(database: DatabaseService): Promise<DatabasePromotionStore> {
    return new DatabasePromotionStore(await migratedClient(database));
  }

  constructor(private readonly db: Knex) {}

  async insertLive(
    promotion: NewPromotion,
    actor: string,
    supersedes?: { id: string; reason: string },
  ): Promise<{ record: PromotionRecord; superseded?: PromotionRecord }> {
    const now = new Date().toISOString();
    let superseded: PromotionRecord | undefined;
    try {
      await this.db.transaction(async tx => {
        if (supersedes) {
          // Only a live one (it holds the open key) is superseded, as the lifecycle's rule says.
          const closed = await tx('promotions')
            .where({ id: supersedes.id })
            .whereNotNull('open_key')
            .update({ status: PROMOTION_TRANSITIONS.superseded.to, status_reason: supersedes.reason, open_key: null, updated_at: now });
          if (closed === 1) {
            await insertEvent(tx, supersedes.id, { type: 'superseded', actor, detail: supersedes.reason }, now);
            // Read after the update: a PR recorded on it before is in this row, and none can be recorded after.
            superseded = toRecord((await tx<Row>('promotions').where({ id: supersedes.id }).first())!);
          }
        }
        await tx('promotions').insert({
          id: promotion.id,
          team: promotion.team,
          product: promotion.product,
          from_stage: promotion.fromStage,
          to_stage: promotion.toStage,
          services: JSON.stringify(promotion.services),
          previous_services: JSON.stringify(promotion.previousServices ?? {}),
          fingerprint: promotion.fingerprint,
          kind: promotion.kind ?? 'promotion',
          status: promotion.status,
          status_reason: promotion.statusReason ?? null,
          requested_by: promotion.requestedBy,
          approved_by: null,
          approved_sha: null,
          pr_number: null,
          pr_url: null,
          branch: promotion.branch ?? null,
          base_blob_sha: promotion.baseBlobSha ?? null,
          health_state: null,
          head_sha: null,
          lease_expires_at: promotion.leaseExpiresAt ?? null,
          // Only when queued (null by default), as `rejection` is only ever updated: a database
          // migrated before the column (the migration test) still takes a person's request.
          ...(promotion.queuedAt ? { queued_at: promotion.queuedAt } : {}),
          guard_state: null,
          guard_override: promotion.guardOverride ? JSON.stringify(promotion.guardOverride) : null,
          open_key: openKey(promotion.team, promotion.product, promotion.toStage),
          created_at: now,
          updated_at: now,
        });
        await insertEvent(
          tx,
          promotion.id,
          { type: 'requested', actor, detail: JSON.stringify(promotion.services) },
          now,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        const existing = await this.findLive(promotion.team, promotion.product, promotion.toStage);
        if (existing) throw new OpenPromotionConflictError(existing);
      }
      throw error;
    }
    return { record: (await this.get(promotion.id))!, superseded };
  }

  async get(id: string): Promise<PromotionRecord | undefined> {
    const row = await this.db<Row>('promotions').where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  async findLive(team: string, product: string, toStage: string) {
    const row = await this.db<Row>('promotions')
      .where({ open_key: openKey(team, product, toStage) })
      .first();
    return row ? toRecord(row) : undefined;
  }

  async findByBranch(branch: string) {
    const row = await this.db<Row>('promotions')
      .where({ branch })
      .orderBy('created_at', 'desc')
      .first();
    return row ? toRecord(row) : undefined;
  }

  async listLive(): Promise<PromotionRecord[]> {
    const rows = await this.db<Row>('promotions')
      .whereNotNull('open_key')
      .orderBy('created_at', 'asc');
    return rows.map(toRecord);
  }

  async listForProduct(team: string, product: string, limit: number) {
    const rows = await this.db<Row>('promotions')
      .where({ team, product })
      .orderBy('created_at', 'desc')
      .limit(limit);
    return rows.map(toRecord);
  }

  async transition(
    id: string,
    expected: PromotionExpectation,
    changes: PromotionChanges,
    event?: PromotionEventInput,
  ): Promise<PromotionRecord | undefined> {
    const now = new Date().toISOString();
    const applied = await this.db.transaction(async tx => {
      const query = tx('promotions').where({ id });
      applyExpectation(query, expected);
      const updated = await query.update(toRowChanges(changes, now));
      if (updated !== 1) return false;
      if (event) await insertEvent(tx, id, event, now);
      return true;
    });
    return applied ? this.get(id) : undefined;
  }

  async decideTransition(id: string, decide: TransitionDecider): Promise<PromotionRecord | undefined> {
    return this.db.transaction(async tx => {
      const row = await tx<Row>('promotions').where({ id }).forUpdate().first();
      if (!row) return undefined;
      const decision = decide(toRecord(row), await readEvents(tx, id));
      if (!decision) return undefined;
      const now = new Date().toISOString();
      await tx('promotions').where({ id }).update(toRowChanges(decision.changes, now));
      await insertEvent(tx, id, decision.event, now);
      // As this decision left it: the next decider may change it as soon as this commits.
      return toRecord((await tx<Row>('promotions').where({ id }).first())!);
    });
  }

  async listEvents(id: string): Promise<PromotionEvent[]> {
    return readEvents(this.db, id);
  }
}
