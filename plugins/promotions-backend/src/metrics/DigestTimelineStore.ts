import { Knex } from 'knex';
import type { DigestArrival, ProductRef, RecordedArrival, ReleaseTimeline } from '@refplat/plugin-promotions-common';

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
  /** A boolean on PostgreSQL, 0 or 1 on SQLite. */
  onboarding: boolean | number;
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
  ...(row.onboarding ? { onboarding: true } : {}),
});

/** Where the timelines stand (see DigestTimelineStore.position). */
export interface TimelinePosition {
  cursor: string;
  lastArrivalId: number;
  completeAfterId: number;
}

/** A Release record's timeline read from git, newest first, and the last arrival recorded when it was read. */
export interface ReleaseBaseline {
  afterArrivalId: number;
  timeline: ReleaseTimeline;
}

/** 10 values a row: well below SQLite's 32,766 and PostgreSQL's 65,535 bound values a statement. */
const ARRIVALS_PER_INSERT = 500;

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
   * between the two can neither lose the commit nor read it twice. The
   * cursor moves only from `previous`, the one the caller walked back to:
   * when another reader (a replica's metrics task, the auto-promoter's
   * catch-up) recorded the commit first, nothing is written and false is
   * returned. `gapBefore`: the branch's history before this commit was
   * left unread (a backfill's limit, a commit whose files GitHub listed in
   * part), so the Release records' timelines are complete only from here.
   */
  async recordCommit(
    branch: string,
    commitSha: string,
    arrivals: DigestArrival[],
    options: { previous: string | undefined; gapBefore?: boolean },
  ): Promise<boolean> {
    return this.db.transaction(async tx => {
      // The cursor first: on PostgreSQL the row's lock makes a second reader wait, then find it moved.
      const moved = await this.moveCursor(tx, branch, commitSha, options);
      if (!moved) return false;
      if (arrivals.length > 0) {
        // In chunks: one commit can onboard hundreds of Products, more values than one statement may bind.
        await tx.batchInsert(
          'digest_arrivals',
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
            onboarding: a.onboarding === true,
          })),
          ARRIVALS_PER_INSERT,
        );
      }
      return true;
    });
  }

  private async moveCursor(
    tx: Knex.Transaction,
    branch: string,
    commitSha: string,
    { previous, gapBefore }: { previous: string | undefined; gapBefore?: boolean },
  ): Promise<boolean> {
    const gap = gapBefore ? { complete_after_id: await this.lastArrivalId(tx) } : {};
    const row = { commit_sha: commitSha, read_at: new Date().toISOString(), ...gap };
    if (previous === undefined) {
      if (await tx('metrics_cursor').where({ branch }).first()) return false;
      await tx('metrics_cursor').insert({ branch, ...row });
      return true;
    }
    return (await tx('metrics_cursor').where({ branch, commit_sha: previous }).update(row)) === 1;
  }

  private async lastArrivalId(tx: Knex | Knex.Transaction): Promise<number> {
    const row = await tx('digest_arrivals').max('id as last').first();
    return Number(row?.last ?? 0);
  }

  /**
   * Where the timelines stand on `branch`: the last commit read, the last
   * arrival recorded, and the arrival after which the history read is
   * unbroken. Undefined before the first commit is read.
   */
  async position(branch: string): Promise<TimelinePosition | undefined> {
    const cursor = await this.db('metrics_cursor').where({ branch }).first();
    if (!cursor) return undefined;
    return {
      cursor: cursor.commit_sha,
      lastArrivalId: await this.lastArrivalId(this.db),
      completeAfterId: Number(cursor.complete_after_id),
    };
  }

  /** A Release record's arrivals after arrival `afterId`, oldest first (recordedTimeline reads them). */
  async arrivalsAfter(product: ProductRef, stage: string, afterId: number): Promise<RecordedArrival[]> {
    const rows = await this.db<ArrivalRow>('digest_arrivals')
      .where({ team: product.team, product: product.product, stage })
      .where('id', '>', afterId)
      .orderBy('id', 'asc');
    return rows.map(row => ({
      service: row.service,
      digest: row.digest,
      commit: row.commit_sha,
      ...(row.onboarding ? { onboarding: true } : {}),
    }));
  }

  /** A record's timeline read from git, and the last arrival recorded before its later versions. */
  async baseline(product: ProductRef, stage: string): Promise<ReleaseBaseline | undefined> {
    const row = await this.db('release_baselines').where({ team: product.team, product: product.product, stage }).first();
    return row && { afterArrivalId: Number(row.after_arrival_id), timeline: JSON.parse(row.timeline) };
  }

  async saveBaseline(product: ProductRef, stage: string, baseline: ReleaseBaseline): Promise<void> {
    await this.db('release_baselines')
      .insert({
        team: product.team,
        product: product.product,
        stage,
        after_arrival_id: baseline.afterArrivalId,
        timeline: JSON.stringify(baseline.timeline),
        read_at: new Date().toISOString(),
      })
      .onConflict(['team', 'product', 'stage'])
      .merge();
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
