import { createBackendModule } from '@backstage/backend-plugin-api';
import { startTestBackend } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import type { ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsHealthSourceExtensionPoint } from '@refplat/plugin-promotions-node';
import { FakeHealthSource, InMemoryPlatformRepo, PlatformRepoMethod } from '@refplat/plugin-promotions-node/testUtils';
import { readPromotionsConfig } from '../config';
import { platformRepoSlotExtensionPoint } from '../extensions/platformRepoSlot';
import { environmentPath, releasePath } from '../ladder/readProductRecords';
import { renderEnvironment, renderRelease } from '@refplat/platform-sim';
import { parseRelease } from '../releases/records';
import { PromotionsBackendOptions, SimAddresses, promotionsBackendFeatures, simConfig } from './testBackend';

/** Where the config points: nothing answers there; the fakes stand in for GitHub and ArgoCD. */
const NOWHERE: SimAddresses = {
  url: 'http://github.fake',
  githubApiUrl: 'http://github.fake/api/v3',
  argocdUrl: 'http://argocd.fake',
  kubernetesUrl: 'http://kubernetes.fake',
  tokens: { github: 'fake', argocd: 'fake', kubernetes: 'fake' },
};

const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];

/** The platform repo's methods that change something on the host. */
const WRITES = new Set<PlatformRepoMethod>([
  'createBranch', 'commitFile', 'commitFiles', 'openPullRequest', 'mergePullRequest',
  'closePullRequest', 'deleteBranch', 'setStatus', 'comment', 'addLabels',
]);

/** A digest per service and build: the hex of `service@build`, padded with zeros, so a failure names it. */
const buildDigest = (service: string, build: number) =>
  `sha256:${Buffer.from(`${service}@${build}`).toString('hex').padEnd(64, '0').slice(0, 64)}`;

/**
 * The seeded platform, as the simulator seeds it: alpha/shop (storefront, cart, checkout;
 * checkout not declared in uat) with each stage a build or two behind the one below, and
 * beta/payments (ledger), owned by group beta.
 */
const SEED: Array<{ product: ProductRef; builds: Record<string, Record<string, number>> }> = [
  {
    product: { team: 'alpha', product: 'shop' },
    builds: {
      dev: { storefront: 4, cart: 7, checkout: 3 },
      test: { storefront: 3, cart: 7, checkout: 2 },
      uat: { storefront: 3, cart: 6 },
      staging: { storefront: 2, cart: 6, checkout: 1 },
      prod: { storefront: 1, cart: 5, checkout: 1 },
    },
  },
  {
    product: { team: 'beta', product: 'payments' },
    // The same build on every stage: nothing to promote.
    builds: Object.fromEntries(STAGES.map(stage => [stage, { ledger: 3 }])),
  },
];

/**
 * The platform the fakes stand for: the in-memory platform repo (seeded as SEED) and ArgoCD
 * (FakeHealthSource) following git: whenever the base branch moves, every stage runs its
 * Release's digests, Synced and Healthy; a test sets a stage otherwise (`stageHealth`).
 */
export function fakePlatform() {
  const config = readPromotionsConfig(new ConfigReader(simConfig(NOWHERE, 'none')));
  const repo = new InMemoryPlatformRepo();
  const argo = new FakeHealthSource({ platformRepoUrl: `${NOWHERE.url}/refplat/platform` });
  const products = SEED.map(seed => ({ ...seed }));
  /** A Product's Release and Environment files, each build `back` builds older than seeded. */
  const filesOf = ({ product, builds }: (typeof SEED)[number], back: number) => {
    const declared = [...new Set(Object.values(builds).flatMap(Object.keys))];
    return STAGES.flatMap(stage => [
      [releasePath(config, product, stage), renderRelease({ ...product, stage }, Object.fromEntries(Object.entries(builds[stage]).map(([s, b]) => [s, buildDigest(s, b - back)])))],
      [environmentPath(config, product, stage), renderEnvironment({ ...product, stage }, stage === 'uat' && product.product.startsWith('shop') ? ['storefront', 'cart'] : declared)],
    ]);
  };
  // Two commits: each stage's history has an earlier build to roll back to.
  repo.commit(Object.fromEntries(products.flatMap(seed => filesOf(seed, 1))), { message: 'Seed the platform' });
  repo.commit(Object.fromEntries(products.flatMap(seed => filesOf(seed, 0))), { message: 'Release the next builds' });
  let followed: string | undefined;
  /** ArgoCD's controller: every stage runs what its Release says at the branch's head, once it moves. */
  const follow = () => {
    const head = repo.branchHead()!;
    if (head === followed) return;
    followed = head;
    for (const { product } of products) {
      for (const stage of STAGES) {
        const text = repo.fileAt(head, releasePath(config, product, stage));
        if (text) argo.runs(product, stage, parseRelease(text).services, head);
      }
    }
  };
  follow();
  const controller = setInterval(follow, 50);
  const added = new Map<string, number>();
  const releasedAt = (product: ProductRef, stage: string) =>
    parseRelease(repo.fileAt(repo.branchHead()!, releasePath(config, product, stage))!).services;
  return {
    repo,
    argo,
    /**
     * The stage runs its Release's digests, but `health` (Progressing: rolling out, the Gate does
     * not merge out of it; Degraded: an aborted canary) for `services` (every one unless given),
     * the others Healthy; until the branch moves or `resync`.
     */
    stageHealth: (product: ProductRef, stage: string, health: 'Progressing' | 'Degraded', services?: string[]) => {
      const running = releasedAt(product, stage);
      const affected = (service: string) => !services || services.includes(service);
      argo.setApplication(product, stage, {
        revision: repo.branchHead()!,
        health,
        images: Object.entries(running).map(([service, digest]) => `registry.example/team-${product.team}/${product.product}-${service}@${digest}`),
        rollouts: Object.fromEntries(Object.keys(running).map(service => [service, affected(service) ? health : ('Healthy' as const)])),
      });
    },
    /** Every stage runs its Release again, Synced and Healthy: what a test set on `argo` by hand is undone. */
    resync: () => {
      followed = undefined;
      follow();
    },
    /**
     * A Product of the test's own, laid out as the seeded one `like` (alpha/shop unless given) and
     * running as released: `alpha/shop-1`, … (the catalog has their Systems, see testBackend).
     */
    addProduct: (like = 'alpha/shop') => {
      const seed = SEED.find(({ product }) => `${product.team}/${product.product}` === like)!;
      added.set(like, (added.get(like) ?? 0) + 1);
      const product = { team: seed.product.team, product: `${seed.product.product}-${added.get(like)}` };
      products.push({ product, builds: seed.builds });
      repo.commit(Object.fromEntries(filesOf({ product, builds: seed.builds }, 1)), { message: `Add ${product.team}/${product.product}` });
      repo.commit(Object.fromEntries(filesOf({ product, builds: seed.builds }, 0)), { message: `Release ${product.team}/${product.product}'s next builds` });
      follow();
      // The branches its promotions open start so, as with the simulator's Products (sharedSimBackend).
      return { ...product, ref: `${product.team}/${product.product}`, branchPrefix: `promotions/${product.team}-${product.product}-` };
    },
    /** The writes the fake platform repo received since call `mark` (an index into `repo.calls`). */
    writesSince: (mark: number) => repo.calls.slice(mark).filter(call => WRITES.has(call)),
    /** The digests a stage's Release names on the base branch. */
    released: releasedAt,
    /** ArgoCD stops following git. */
    stop: () => clearInterval(controller),
  };
}

export type FakePlatform = ReturnType<typeof fakePlatform>;

/** What a backend on the fakes takes: a test backend's options. */
export type PromotionsOnFakesOptions = PromotionsBackendOptions;

/**
 * The whole plugin (routes, Gate, write queue, reconciler) as a backend runs it, with the
 * platform repo and ArgoCD replaced by the in-memory fakes of -node in the composition root's
 * slots: those of `platform`, a fakePlatform of its own unless given (a replica of another
 * backend takes that one's, with the same `knex`). No simulator, no HTTP upstream.
 */
export async function startPromotionsBackendOnFakes(options: PromotionsOnFakesOptions = {}, shared?: FakePlatform) {
  const platform = shared ?? fakePlatform();
  const fakesModule = createBackendModule({
    pluginId: 'promotions',
    moduleId: 'fakes',
    register(reg) {
      reg.registerInit({
        deps: { slot: platformRepoSlotExtensionPoint, health: promotionsHealthSourceExtensionPoint },
        async init({ slot, health }) {
          slot.setPlatformRepo({ files: platform.repo, writer: platform.repo });
          health.setHealthSource(platform.argo);
        },
      });
    },
  });
  const backend = await startTestBackend({ features: [...promotionsBackendFeatures(NOWHERE, 'none', options), fakesModule] });
  return {
    ...platform,
    platform,
    server: backend.server,
    async stop() {
      await backend.stop();
      // A shared platform is its owner's to stop.
      if (!shared) platform.stop();
    },
  };
}

export type FakesBackend = Awaited<ReturnType<typeof startPromotionsBackendOnFakes>>;

/**
 * A backend on fakes of its own for the enclosing describe block: started before the block's
 * tests (its Gate looking every 200 ms unless `options` say otherwise) and stopped after them.
 */
export function fakesBackendForBlock(options: PromotionsOnFakesOptions = {}): { world: FakesBackend } {
  const handle = {} as { world: FakesBackend };
  beforeAll(async () => {
    handle.world = await startPromotionsBackendOnFakes({ gate: { frequency: { milliseconds: 200 } }, ...options });
  });
  afterAll(async () => {
    await handle.world?.stop();
  });
  return handle;
}
