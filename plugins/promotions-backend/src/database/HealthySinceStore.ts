import { Knex } from 'knex';
import { healthySinceKey } from '@refplat/plugin-promotions-common';
import type { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { HealthySinceStore, healthySinceChanges } from '@refplat/plugin-promotions-node';

export type { HealthySinceStore } from '@refplat/plugin-promotions-node';

type Row = { team: string; product: string; stage: string; service: string; digest: string; since: string };

/**
 * Healthy-since times in the plugin's database, one row per (product,
 * stage, service), for one digest; `healthySinceChanges` says what a ladder
 * read changes, and only that is written.
 */
export class DatabaseHealthySinceStore implements HealthySinceStore {
  constructor(private readonly db: Knex) {}

  /** `healthySinceKey(stage, service, digest)` → ISO time. */
  async read(product: ProductRef): Promise<Record<string, string>> {
    const rows = await this.db<Row>('healthy_since').where({
      team: product.team,
      product: product.product,
    });
    return Object.fromEntries(rows.map(r => [healthySinceKey(r.stage, r.service, r.digest), r.since]));
  }

  /** Records what a ladder read observed; writes only what changed. */
  async observe(ladder: Ladder, now: Date): Promise<Record<string, string>> {
    const changes = healthySinceChanges(await this.read(ladder), ladder, now);
    const cell = (stage: string, service: string) => ({ team: ladder.team, product: ladder.product, stage, service });
    for (const { stage, service, digest, since } of changes.started) {
      await this.db('healthy_since').where(cell(stage, service)).delete();
      await this.db('healthy_since')
        .insert({ ...cell(stage, service), digest, since })
        .onConflict(['team', 'product', 'stage', 'service'])
        .ignore();
    }
    for (const { stage, service } of changes.ended) {
      await this.db('healthy_since').where(cell(stage, service)).delete();
    }
    return changes.next;
  }
}
