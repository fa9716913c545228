import { randomUUID } from 'crypto';
import { CacheManager } from '@backstage/backend-defaults/cache';
import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { leaseExpiry, ProductRef } from '@refplat/plugin-promotions-common';
import type { LoggedRequest, RunningSim } from '@refplat/platform-sim';
import Knex from 'knex';
import { migratedClient } from '../database/DatabasePromotionStore';
import { Octokit } from '@octokit/rest';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { PromotionOpener } from '../promotions/PromotionOpener';
import { branchName, promotionFingerprint } from '../promotions/pullRequestText';
import { namesWithoutCatalog } from '../service/ActorNames';
import { releasePath } from '../ladder/readProductRecords';
import { promotionsRoot } from '../wiring/promotionsRoot';
import { KnownProducts } from '../service/KnownProducts';
import { productsOnMain } from './productsOnMain';
import { simConfig, SimAddresses } from './testBackend';
import type { HealthSource } from '../health/HealthSource';

/** The default Products opt out of auto-promotion here, so that a scan only reads: the cost measured is the scan's. */
const OPTING_OUT = new Set(['alpha/shop', 'beta/payments']);

/**
 * A System for every Product on the simulator's main now (the auto-promoter
 * promotes only Products the catalog has), the default ones opting out.
 */
function productSystems(sim: Pick<RunningSim, 'repoDir'>): Entity[] {
  return productsOnMain(sim.repoDir).map(([team, product]) => {
    const name = `${team}/${product}`;
    return {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'System',
      metadata: {
        name: `${team}-${product}`,
        namespace: 'default',
        annotations: { 'refplat.org/product': name, ...(OPTING_OUT.has(name) ? { 'refplat.org/auto-promote': 'false' } : {}) },
      },
    };
  });
}

/**
 * The plugin's services against a simulator, with Backstage's in-memory
 * CacheService and SQLite: what one fresh replica has at start-up. Given
 * the database of an earlier one, it is that replica restarted.
 */
export async function costServices(
  /** A simulator here, or in a process of its own (bench/simProcess). */
  sim: SimAddresses & Pick<RunningSim, 'repoDir'>,
  db: Knex.Knex = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true }),
  /** More config, e.g. a `cacheTtl` other than the tests' 0. */
  extra: Parameters<typeof simConfig>[2] = {},
  /** Health from here instead of the simulator's ArgoCD (a bench's fake, for more Applications than the simulator runs). */
  healthSource?: HealthSource,
) {
  const rootConfig = new ConfigReader(simConfig(sim, healthSource ? 'none' : 'argocd', extra));
  const logger = mockServices.logger.mock();
  const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
  const parts = promotionsRoot({
    rootConfig,
    cache,
    db: await migratedClient({ getClient: async () => db }),
    logger,
    catalog: catalogServiceMock({ entities: productSystems(sim) }),
    auth: mockServices.auth(),
    permissions: mockServices.permissions(),
    auditor: mockServices.auditor.mock(),
    healthSource,
  });
  const { config, repo, stores, ladders, promotions } = parts;
  // The parts a cost test drives and reads, by the names they had in the plugin's services.
  const services = {
    config,
    reader: repo.reader,
    store: stores.promotions,
    digestTimelines: stores.timelines,
    gate: promotions.gate,
    autoPromoter: promotions.autoPromoter,
    promotionQueue: promotions.promotionQueue,
    timelineReader: ladders.timelineReader,
    overviewModel: ladders.overviewModel,
    knownProducts: new KnownProducts(repo.reader, config),
  };
  // Test equipment: a plain client, without the product's pacing of writes a second apart.
  const octokit = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
  const opener = new PromotionOpener({
    config,
    store: services.store,
    writer: new PlatformRepoWriter(octokit, config.platformRepo),
    logger,
    names: namesWithoutCatalog,
  });

  /**
   * Opens a rollback of `product`'s prod to another digest, waiting for a
   * release-approver: its PR stays open and its checks stay as they are,
   * so the Gate has nothing to do but look.
   */
  async function openWaitingRollback(product: ProductRef, n: number) {
    const revision = await services.reader.headCommit();
    const index = await services.reader.fileIndex(revision);
    const id = randomUUID();
    const services_ = { web: `sha256:${(0xfeed0000 + n).toString(16).padStart(64, '0')}` };
    const { record } = await services.store.insertLive(
      {
        id,
        team: product.team,
        product: product.product,
        fromStage: 'prod',
        toStage: 'prod',
        services: services_,
        previousServices: { web: null },
        fingerprint: promotionFingerprint(product.team, product.product, 'prod', services_),
        kind: 'rollback',
        status: 'awaiting-approval',
        requestedBy: 'user:default/alice',
        baseBlobSha: index[releasePath(config, product, 'prod')],
        branch: branchName({ ...product, toStage: 'prod', id }),
        leaseExpiresAt: leaseExpiry(new Date(), 60_000),
      },
      'user:default/alice',
    );
    return opener.open(record, revision, true);
  }

  return { ...services, openWaitingRollback };
}

/** Where a tarball's 302 leads (codeload): logged by the simulator as GitHub traffic, not charged by GitHub. */
const CODELOAD_DOWNLOAD = /^\/[^/]+\/[^/]+\/legacy\.tar\.gz\//;

/** Whether GitHub charges a logged request to the rate limit: neither a 304 nor a codeload download. */
export function isCharged(call: Pick<LoggedRequest, 'status' | 'path'>): boolean {
  return call.status !== 304 && !CODELOAD_DOWNLOAD.test(call.path);
}

/** GitHub requests of a measured step; 304s and codeload downloads are not charged by GitHub. */
export interface GithubCost {
  github: number;
  github304: number;
  /** Requests that count against GitHub's rate limit (isCharged). */
  charged: number;
  argocd: number;
  ms: number;
  calls: string[];
}

export function costOf(calls: LoggedRequest[], ms: number): GithubCost {
  const github = calls.filter(call => call.target === 'github');
  return {
    github: github.length,
    github304: github.filter(call => call.status === 304).length,
    charged: github.filter(isCharged).length,
    argocd: calls.filter(call => call.target === 'argocd').length,
    ms,
    calls: github.slice(0, 8).map(call => `${call.status} ${call.method} ${call.path}`),
  };
}

/** Runs `step` with a clean request log and returns its upstream cost. */
export async function measure<T>(sim: RunningSim, step: () => Promise<T>): Promise<{ cost: GithubCost; result: T }> {
  sim.control.clearRequests();
  const started = performance.now();
  const result = await step();
  const ms = Math.round(performance.now() - started);
  return { cost: costOf(sim.control.getRequests(), ms), result };
}

/** The Products bench/manyProducts.ts adds: product<n> of team<n % 50>. */
export function addedProduct(n: number): ProductRef {
  return { team: `team${n % 50}`, product: `product${n}` };
}
