import { Knex } from 'knex';
import type { DigestArrival, ProductRef } from '@refplat/plugin-promotions-common';

type ArrivalRow = {
  team: string;
  product: string;
  stage: string;
  service: string;
  digest: string;
  arrived_at: string;
  commit_sha: string;
  pr_number: number | null;
  promotion_id: string | null;
};

const toArrival = (row: ArrivalRow): DigestArrival => ({
  team: row.team,
  product: row.product,
  stage: row.stage,
  service: row.service,
  digest: row.digest,
  at: row.arrived_at,
  commit: row.commit_sha,
  ...(row.pr_number !== null ? { pullRequest: row.pr_number } : {}),
  ...(row.promotion_id !== null ? { promotionId: row.promotion_id } : {}),
});

/** Per-digest timelines and the last platform-branch commit read into them. */
export class DigestTimelineStore {
  constructor(private readonly db: Knex) {}

  /** The last commit read on `branch` (owner/repo/branch), if any. */
  async cursor(branch: string): Promise<string | undefined> {
    const row = await this.db('metrics_cursor').where({ branch }).first();
    return row?.commit_sha;
  }

  /** Service → the digest it last arrived with in a Product's stage. */
  async currentDigests(product: ProductRef, stage: string): Promise<Record<string, string>> {
    const rows = await this.latest({ team: product.team, product: product.product, stage });
    return Object.fromEntries(rows.map(row => [row.service, row.digest]));
  }

  /** Each Service's last arrival in each of a Product's stages: what the branch runs, and since when. */
  async latestArrivals(product: ProductRef): Promise<DigestArrival[]> {
    return (await this.latest({ team: product.team, product: product.product })).map(toArrival);
  }

  /** The last arrival per stage and Service among the rows matching `where` (one grouped query). */
  private latest(where: Partial<ArrivalRow>): Promise<ArrivalRow[]> {
    return this.db<ArrivalRow>('digest_arrivals').whereIn(
      'id',
      this.db('digest_arrivals').where(where).groupBy('stage', 'service').max('id'),
    );
  }

  /** The plugin's promotion that opened a Product's PR, when it did. */
  async promotionOf(product: ProductRef, pullRequest: number): Promise<string | undefined> {
    const row = await this.db('promotions')
      .where({ team: product.team, product: product.product, pr_number: pullRequest })
      .first('id');
    return row?.id;
  }

  /**
   * One commit's arrivals and the cursor moving to it, together: a crash
   * between the two can neither lose the commit nor read it twice.
   */
  async recordCommit(branch: string, commitSha: string, arrivals: DigestArrival[]): Promise<void> {
    await this.db.transaction(async tx => {
      if (arrivals.length > 0) {
        await tx('digest_arrivals').insert(
          arrivals.map(a => ({
            team: a.team,
            product: a.product,
            stage: a.stage,
            service: a.service,
            digest: a.digest,
            arrived_at: a.at,
            commit_sha: a.commit,
            pr_number: a.pullRequest ?? null,
            promotion_id: a.promotionId ?? null,
          })),
        );
      }
      await tx('metrics_cursor')
        .insert({ branch, commit_sha: commitSha, read_at: new Date().toISOString() })
        .onConflict('branch')
        .merge();
    });
  }

  /** Every Product with a timeline. */
  async products(): Promise<ProductRef[]> {
    return this.db('digest_arrivals').distinct('team', 'product').orderBy(['team', 'product']);
  }

  /** Every arrival of these Products, oldest first. */
  async arrivals(products: ProductRef[]): Promise<DigestArrival[]> {
    if (products.length === 0) return [];
    // By team, then Products in memory: one OR per Product would outgrow SQLite's expression depth.
    const wanted = new Set(products.map(p => `${p.team}/${p.product}`));
    const rows = await this.db<ArrivalRow>('digest_arrivals')
      .whereIn('team', [...new Set(products.map(p => p.team))])
      .orderBy('id', 'asc');
    return rows.filter(row => wanted.has(`${row.team}/${row.product}`)).map(toArrival);
  }
}
