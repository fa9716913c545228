import { randomUUID } from 'crypto';
import {
  DatabaseService,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import { Knex } from 'knex';
import {
  PromotionEvent,
  PromotionEventType,
  PromotionStatus,
} from '@refplat/plugin-promotions-common';
import {
  LIVE_STATUSES,
  NewPromotion,
  OpenPromotionConflictError,
  PromotionRecord,
  PromotionStore,
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
  pr_number: number | null;
  pr_url: string | null;
  branch: string | null;
  base_blob_sha: string | null;
  health_state: string | null;
  open_key: string | null;
  created_at: string;
  updated_at: string;
};

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
    pullRequest: { number: row.pr_number ?? 0, url: row.pr_url ?? '' },
    branch: row.branch ?? undefined,
    baseBlobSha: row.base_blob_sha ?? undefined,
    healthState: row.health_state ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed|duplicate key/i.test(e?.message ?? '')
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
  ): Promise<PromotionRecord> {
    const now = new Date().toISOString();
    const id = randomUUID();
    const key = openKey(promotion.team, promotion.product, promotion.toStage);
    try {
      await this.db.transaction(async tx => {
        if (supersedes) {
          await tx('promotions')
            .where({ id: supersedes.id })
            .update({
              status: 'closed',
              status_reason: supersedes.reason,
              open_key: null,
              updated_at: now,
            });
          await tx('promotion_events').insert({
            promotion_id: supersedes.id,
            type: 'superseded',
            actor,
            at: now,
            detail: supersedes.reason,
          });
        }
        await tx('promotions').insert({
          id,
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
          pr_number: null,
          pr_url: null,
          branch: promotion.branch ?? null,
          base_blob_sha: promotion.baseBlobSha ?? null,
          health_state: null,
          open_key: key,
          created_at: now,
          updated_at: now,
        });
        await tx('promotion_events').insert({
          promotion_id: id,
          type: 'requested',
          actor,
          at: now,
          detail: JSON.stringify(promotion.services),
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        const existing = await this.findLive(promotion.team, promotion.product, promotion.toStage);
        if (existing) throw new OpenPromotionConflictError(existing);
      }
      throw error;
    }
    return (await this.get(id))!;
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

  async update(
    id: string,
    changes: Parameters<PromotionStore['update']>[1],
    event?: { type: PromotionEventType; actor: string; detail?: string },
  ): Promise<PromotionRecord> {
    const now = new Date().toISOString();
    const row: Partial<Row> = { updated_at: now };
    if (changes.status !== undefined) {
      row.status = changes.status;
      if (!LIVE_STATUSES.includes(changes.status)) row.open_key = null;
    }
    if ('statusReason' in changes) row.status_reason = changes.statusReason ?? null;
    if (changes.approvedBy !== undefined) row.approved_by = changes.approvedBy;
    if (changes.pullRequest) {
      row.pr_number = changes.pullRequest.number;
      row.pr_url = changes.pullRequest.url;
    }
    if (changes.branch !== undefined) row.branch = changes.branch;
    if (changes.healthState !== undefined) row.health_state = changes.healthState;
    await this.db.transaction(async tx => {
      await tx('promotions').where({ id }).update(row);
      if (event) {
        await tx('promotion_events').insert({
          promotion_id: id,
          type: event.type,
          actor: event.actor,
          at: now,
          detail: event.detail ?? null,
        });
      }
    });
    return (await this.get(id))!;
  }

  async addEvent(id: string, type: PromotionEventType, actor: string, detail?: string) {
    await this.db('promotion_events').insert({
      promotion_id: id,
      type,
      actor,
      at: new Date().toISOString(),
      detail: detail ?? null,
    });
  }

  async listEvents(id: string): Promise<PromotionEvent[]> {
    const rows = await this.db('promotion_events')
      .where({ promotion_id: id })
      .orderBy('id', 'asc');
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
}
