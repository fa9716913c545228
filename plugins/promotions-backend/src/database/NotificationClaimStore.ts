import { Knex } from 'knex';
import type { NotificationClaimStore } from '@refplat/plugin-promotions-node';

export type { NotificationClaimStore } from '@refplat/plugin-promotions-node';

type Row = { claim_key: string; claimed_at: string };

/**
 * Notifications that must be sent once however many replicas see their
 * cause: the replica whose insert of the key takes effect sends it. A claim
 * holds for `ttlMs`; each claim first deletes the expired ones, so the table
 * keeps about `ttlMs` of claims and a key can be claimed again after it.
 */
export class DatabaseNotificationClaimStore implements NotificationClaimStore {
  constructor(
    private readonly db: Knex,
    private readonly ttlMs: number,
  ) {}

  /** True for exactly one caller per key within `ttlMs`, on any replica. */
  async claim(key: string, at: Date): Promise<boolean> {
    const expired = new Date(at.getTime() - this.ttlMs).toISOString();
    await this.db<Row>('notification_claims').where('claimed_at', '<=', expired).delete();
    const inserted = await this.db<Row>('notification_claims')
      .insert({ claim_key: key, claimed_at: at.toISOString() })
      .onConflict('claim_key')
      .ignore()
      .returning('claim_key');
    return inserted.length > 0;
  }
}
