import { Knex } from 'knex';
import type { OpenIncident, ProductRef } from '@refplat/plugin-promotions-common';
import type { IncidentStore } from '@refplat/plugin-promotions-node';

export type { IncidentStore } from '@refplat/plugin-promotions-node';

type Row = {
  team: string;
  product: string;
  incident_id: string;
  url: string;
  state: 'open' | 'resolved';
  opened_at: string;
  resolved_at: string | null;
};

const toIncident = (row: Row): OpenIncident => ({ id: row.incident_id, url: row.url, openedAt: row.opened_at });

/**
 * The Products' incidents, in the plugin's database so every replica agrees
 * and a restart keeps them. Each change happens once however often a report
 * is delivered: `open` and `resolve` say whether they changed anything.
 */
export class DatabaseIncidentStore implements IncidentStore {
  constructor(private readonly db: Knex) {}

  async listOpen(product: ProductRef): Promise<OpenIncident[]> {
    const rows = await this.db<Row>('incidents')
      .where({ team: product.team, product: product.product, state: 'open' })
      .orderBy('opened_at', 'asc');
    return rows.map(toIncident);
  }

  /** True when the incident was not open before (new, or resolved and open again). */
  async open(product: ProductRef, id: string, url: string, at: Date): Promise<boolean> {
    const key = { team: product.team, product: product.product, incident_id: id };
    const reopened = await this.db<Row>('incidents')
      .where({ ...key, state: 'resolved' })
      .update({ state: 'open', url, opened_at: at.toISOString(), resolved_at: null });
    if (reopened) return true;
    try {
      await this.db<Row>('incidents').insert({ ...key, url, state: 'open', opened_at: at.toISOString(), resolved_at: null });
      return true;
    } catch (error) {
      // Another delivery (or replica) recorded it first: keep its row, with the latest link.
      const updated = await this.db<Row>('incidents').where({ ...key, state: 'open' }).update({ url });
      if (!updated) throw error;
      return false;
    }
  }

  /** True when the incident was open. */
  async resolve(product: ProductRef, id: string, at: Date): Promise<boolean> {
    const resolved = await this.db<Row>('incidents')
      .where({ team: product.team, product: product.product, incident_id: id, state: 'open' })
      .update({ state: 'resolved', resolved_at: at.toISOString() });
    return resolved > 0;
  }
}
