import { Knex } from 'knex';
import { ConflictError, NotFoundError } from '@backstage/errors';
import type { Hold, ProductRef } from '@refplat/plugin-promotions-common';
import type { HoldStore } from '@refplat/plugin-promotions-node';

export type { HoldStore } from '@refplat/plugin-promotions-node';

type Row = {
  id: number;
  team: string;
  product: string;
  stage: string;
  service: string;
  reason: string;
  placed_by: string;
  placed_at: string;
  lifted_by: string | null;
  lifted_at: string | null;
  live_key: string | null;
};

const toHold = (row: Row): Hold => ({
  stage: row.stage,
  service: row.service,
  reason: row.reason,
  placedBy: row.placed_by,
  placedAt: row.placed_at,
});

const liveKey = (product: ProductRef, stage: string, service: string) =>
  `${product.team}/${product.product}/${stage}/${service}`;

/** Holds in the plugin's database (one live hold per key, by a unique live key), via knex. */
export class DatabaseHoldStore implements HoldStore {
  constructor(private readonly db: Knex) {}

  async listLive(product: ProductRef): Promise<Hold[]> {
    const rows = await this.db<Row>('holds')
      .where({ team: product.team, product: product.product })
      .whereNotNull('live_key')
      .orderBy('placed_at', 'asc');
    return rows.map(toHold);
  }

  /** Places a hold; placing one where one is live keeps the first. */
  async place(
    product: ProductRef,
    hold: { stage: string; service: string; reason: string; placedBy: string },
  ): Promise<Hold> {
    const key = liveKey(product, hold.stage, hold.service);
    await this.db('holds')
      .insert({
        team: product.team,
        product: product.product,
        stage: hold.stage,
        service: hold.service,
        reason: hold.reason,
        placed_by: hold.placedBy,
        placed_at: new Date().toISOString(),
        live_key: key,
      })
      .onConflict('live_key')
      .ignore();
    const row = await this.db<Row>('holds').where({ live_key: key }).first();
    if (!row) throw new ConflictError(`Could not place the hold on ${hold.service} in ${hold.stage}`);
    return toHold(row);
  }

  async lift(product: ProductRef, stage: string, service: string, liftedBy: string): Promise<Hold> {
    const key = liveKey(product, stage, service);
    const row = await this.db<Row>('holds').where({ live_key: key }).first();
    if (!row) throw new NotFoundError(`No hold on ${service} in ${stage}`);
    await this.db('holds')
      .where({ id: row.id })
      .update({ live_key: null, lifted_by: liftedBy, lifted_at: new Date().toISOString() });
    return toHold(row);
  }
}
