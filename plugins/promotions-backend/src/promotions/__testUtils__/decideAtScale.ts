/**
 * The child side of AutoPromoter.memory.test.ts: the plugin alone in a Node
 * process (started with a heap limit), composed as the backend composes it
 * (promotionsRoot, Backstage's in-memory cache, SQLite) against a simulator
 * in another process. It runs one cold auto-promoter decision over every
 * Product in the platform repo and prints, as its last line, `decided <JSON>`:
 * the Products decided, those skipped, and the process's peak resident
 * memory (the kernel's, not sampled). Input: DECIDE_AT_SCALE (JSON: the
 * root config and the simulator's repository directory).
 */
import Knex from 'knex';
import { CacheManager } from '@backstage/backend-defaults/cache';
import type { LoggerService } from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import type { JsonObject } from '@backstage/types';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { migratedClient } from '../../database/DatabasePromotionStore';
import { asBulkWork } from '../../github/WriteBudget';
import { promotionsRoot } from '../../wiring/promotionsRoot';
import { productsOnMain } from '../../__testUtils__/productsOnMain';

export interface DecideAtScaleInput {
  rootConfig: JsonObject;
  repoDir: string;
  /**
   * Climb too: after the run, the write queue opens every PR it queued and the Gate runs
   * until each promotion settled (merged, closed or failed), or this many milliseconds passed.
   */
  climbWithinMs?: number;
}

/** What the child prints after `decided `. */
export interface DecidedAtScale {
  products: number;
  skipped: number;
  decisions: number;
  runMs: number;
  /** With `climbWithinMs`: the promotions queued and how they settled, and when the last settled. */
  climb?: { queued: number; merged: number; closed: number; failed: number; settledMs: number; notSettled: string[] };
  peakRssMb: number;
}

/** Drains the write queue and runs the Gate until every promotion `ids` names has settled, or `withinMs` passed. */
async function climb(parts: ReturnType<typeof promotionsRoot>, ids: string[], withinMs: number, started: number) {
  const { promotions, stores } = parts;
  await asBulkWork(() => promotions.promotionQueue.drain());
  const settledStatuses = ['merged', 'closed', 'failed'];
  // The Gate's runs go on beside the count: a run that merged everything may still wait for
  // GitHub's hourly write budget to delete the merged branches, which settles nothing.
  let gateRun: Promise<void> | undefined;
  for (;;) {
    gateRun ??= promotions.gate.checkAll().finally(() => {
      gateRun = undefined;
    });
    await Promise.race([gateRun, new Promise(resolve => setTimeout(resolve, 1000))]);
    const records = await Promise.all(ids.map(id => stores.promotions.get(id)));
    const count = (status: string) => records.filter(record => record?.status === status).length;
    const settled = records.every(record => record && settledStatuses.includes(record.status));
    if (settled || performance.now() - started > withinMs) {
      const notSettled = records.filter(record => record && !settledStatuses.includes(record.status)).map(record => `${record!.team}/${record!.product}`);
      return {
        queued: ids.length,
        merged: count('merged'),
        closed: count('closed'),
        failed: count('failed'),
        notSettled,
        settledMs: Math.round(performance.now() - started),
      };
    }
  }
}

/** Every `<team>/<product>` under gitops/releases on the simulator's main: each gets a System in the catalog. */
function productNames(repoDir: string): string[] {
  return productsOnMain(repoDir).map(parts => parts.join('/'));
}

async function main() {
  const input: DecideAtScaleInput = JSON.parse(process.env.DECIDE_AT_SCALE ?? '{}');
  let skipped = 0;
  const logger: LoggerService = {
    error: () => undefined,
    // The auto-promoter warns once for each Product it skips.
    warn: message => {
      if (message.startsWith('Auto-promoter skipped')) skipped += 1;
    },
    info: () => undefined,
    debug: () => undefined,
    child: () => logger,
  };
  const systems = productNames(input.repoDir).map(product => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'System',
    metadata: { name: product.replace('/', '-'), annotations: { 'refplat.org/product': product } },
  }));
  const credentials = { $$type: '@backstage/BackstageCredentials', principal: { type: 'service', subject: 'plugin:promotions' } };
  const db = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });
  const parts = promotionsRoot({
    rootConfig: new ConfigReader(input.rootConfig),
    cache: CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions'),
    db: await migratedClient({ getClient: async () => db }),
    logger,
    catalog: { getEntities: async () => ({ items: systems }) } as never,
    auth: { getOwnServiceCredentials: async () => credentials } as never,
    permissions: { authorize: async (requests: unknown[]) => requests.map(() => ({ result: AuthorizeResult.ALLOW })) } as never,
    auditor: { createEvent: async () => ({ success: async () => undefined, fail: async () => undefined }) } as never,
  });
  const started = performance.now();
  const run = await asBulkWork(() => parts.promotions.autoPromoter.run());
  const runMs = Math.round(performance.now() - started);
  const climbed = input.climbWithinMs
    ? await climb(parts, run.queued.map(queued => queued.promotionId), input.climbWithinMs, started)
    : undefined;
  const decided: DecidedAtScale = {
    products: run.products,
    skipped,
    decisions: run.decisions.length,
    runMs,
    ...(climbed ? { climb: climbed } : {}),
    // ru_maxrss: the most this process ever held resident, in kilobytes.
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  process.stdout.write(`decided ${JSON.stringify(decided)}\n`);
  process.exit(0);
}

main().catch(error => {
  process.stderr.write(`decideAtScale failed: ${error?.stack ?? error}\n`);
  process.exit(1);
});
