import { Knex } from 'knex';
import type { Ladder, ProductRef } from '@refplat/plugin-promotions-common';

type Row = { team: string; product: string; stage: string; service: string; digest: string; since: string };

/**
 * Since when each service has been healthy at a stage with its current
 * digest, as observed by ladder reads: one row per (product, stage, service),
 * for one digest. Soak times are measured from here. A new digest starts it
 * again, and so does a real failure of the service itself (`unhealthy`); a
 * service that is only `progressing` or `unknown` for a while (a neighbour's
 * sync, ArgoCD briefly unreachable) keeps its time.
 */
export class HealthySinceStore {
  constructor(private readonly db: Knex) {}

  /** `${stage}/${service}/${digest}` → ISO time. */
  async read(product: ProductRef): Promise<Record<string, string>> {
    const rows = await this.db<Row>('healthy_since').where({
      team: product.team,
      product: product.product,
    });
    return Object.fromEntries(rows.map(r => [`${r.stage}/${r.service}/${r.digest}`, r.since]));
  }

  /** Records what a ladder read observed; writes only what changed. */
  async observe(ladder: Ladder, now: Date): Promise<Record<string, string>> {
    const product = { team: ladder.team, product: ladder.product };
    const known = await this.read(product);
    const next: Record<string, string> = {};
    for (const stage of ladder.stages) {
      for (const [service, cell] of Object.entries(stage.services)) {
        if (!cell.digest) continue;
        const key = `${stage.name}/${service}/${cell.digest}`;
        const where = { team: ladder.team, product: ladder.product, stage: stage.name, service };
        if (cell.healthy) {
          next[key] = known[key] ?? now.toISOString();
          if (!known[key]) {
            await this.db('healthy_since').where(where).delete();
            await this.db('healthy_since')
              .insert({ ...where, digest: cell.digest, since: next[key] })
              .onConflict(['team', 'product', 'stage', 'service'])
              .ignore();
          }
        } else if (known[key] && cell.verdict !== 'unhealthy') {
          next[key] = known[key];
        } else if (known[key]) {
          await this.db('healthy_since').where(where).delete();
        }
      }
    }
    return next;
  }
}
