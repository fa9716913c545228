import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { CacheManager } from '@backstage/backend-defaults/cache';
import { ConfigReader } from '@backstage/config';
import {
  ApplicationSourceShape,
  ArgocdVersion,
  DEFAULT_PLATFORM,
  LoggedRequest,
  RunningSim,
  SimOptions,
} from '@refplat/platform-sim';
import { Octokit } from '@octokit/rest';
import request from 'supertest';
import type { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import {
  eventually,
  FAST_SIM_TIMINGS,
  HealthSourceKind,
  simConfig,
  startPromotionsBackend,
  SWEEP_ONCE,
} from '../__testUtils__/testBackend';
import { comparableLadder, getLadder } from '../__testUtils__/ladderViews';
import { sharedSim, sharedSimBackend, TestProduct, testProduct } from '../__testUtils__/sharedSimBackend';
import { readPromotionsConfig } from '../config';
import { createOctokit } from '../github/createOctokit';
import { PlatformRepoReader } from '../github/PlatformRepoReader';

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

const bob = mockCredentials.user.header('user:default/bob');
/** How long a settle or a merge may take on a busy CI box. */
const SETTLE_MS = 60_000;

/** What the revision check says for each shape (its detail names the shape judged). */
const REVISION_DETAIL: Record<ApplicationSourceShape, RegExp> = {
  'app-repo': /^App repo source: the spec injects sha256:\w+… \(kustomize images\) for storefront and ArgoCD compared against this spec/,
  'platform-repo': /^Platform repo source: synced revision \w+ carries the current Release$/,
  'multi-source':
    /^Multi-source Application: platform repo source #2: synced revision \w+ carries the current Release; app repo source #1: the spec injects sha256:\w+… \(kustomize images\) for storefront and ArgoCD compared against this spec/,
};

function stageOf(ladder: Ladder, name: string) {
  return ladder.stages.find(stage => stage.name === name)!;
}

/** Waits until every stage of the Product (alpha/shop unless given) is healthy: nothing syncing, no canary moving. */
async function settled(server: Server, product = 'alpha/shop'): Promise<Ladder> {
  return eventually(async () => {
    const ladder = await getLadder(server, product);
    return ladder.stages.every(stage => stage.healthy) ? ladder : undefined;
  }, SETTLE_MS);
}

/** Every upstream answer in the 4xx range (a 304 is not one). */
function clientErrors(requests: LoggedRequest[]): string[] {
  return requests
    .filter(call => call.status >= 400 && call.status < 500)
    .map(call => `${call.status} ${call.target} ${call.method} ${call.path}`);
}

/**
 * The simulator of a platform shape, with FAST_SIM_TIMINGS: the default shape (Argo CD 3, app
 * repo) is the file's FAST_SIM_TIMINGS simulator, which the other suites use too; each other
 * shape has one, shared by the cases of this suite that ask for it.
 */
function shapeSim(argocdVersion: ArgocdVersion, applicationSource: ApplicationSourceShape): Partial<SimOptions> {
  const isDefault =
    argocdVersion === DEFAULT_PLATFORM.argocdVersion && applicationSource === DEFAULT_PLATFORM.applicationSource;
  return isDefault ? FAST_SIM_TIMINGS : { ...FAST_SIM_TIMINGS, argocdVersion, applicationSource };
}

const CELLS: Array<{ argocdVersion: ArgocdVersion; applicationSource: ApplicationSourceShape }> = [
  { argocdVersion: '2', applicationSource: 'platform-repo' },
  { argocdVersion: '2', applicationSource: 'app-repo' },
  { argocdVersion: '3', applicationSource: 'platform-repo' },
  { argocdVersion: '3', applicationSource: 'app-repo' },
  { argocdVersion: '3', applicationSource: 'multi-source' },
];

/** The health checks of each platform shape, read by the ladder through ArgoCD and the Kubernetes API. */
export function healthShapesSuite(): void {
  describe('the health of each platform shape', () => {
    describe.each(CELLS)(
      'ArgoCD $argocdVersion, $applicationSource Applications, ArgoCD health source',
      ({ argocdVersion, applicationSource }) => {
        // One backend on the shape's simulator. The Gate's GitHub sweep runs once, at its first run,
        // outside the measured views. The first test reads the seeded alpha/shop; the others
        // promote, break or count the views of a Product of their own. No other backend runs on the
        // simulator meanwhile, and none left a PR open on it, so the requests counted are this one's.
        const shared = sharedSimBackend({
          sim: shapeSim(argocdVersion, applicationSource),
          backend: { gate: SWEEP_ONCE },
        });
        let sim: RunningSim;
        let server: Server;
        let github: Octokit;
        let shop: TestProduct;

        beforeAll(() => {
          ({ sim, server } = shared);
          github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        });

        beforeEach(() => {
          shop = testProduct('alpha', 'shop');
        });

        const requestPromotion = (body: object) =>
          request(server)
            .post(`/api/promotions/products/${shop.ref}/promotions`)
            .set('Authorization', bob)
            .send(body);

        /** The test's Product's PRs, open or closed. */
        const openPulls = async () =>
          (await github.rest.pulls.list({ owner: 'refplat', repo: 'platform', state: 'all', per_page: 100 })).data.filter(
            pull => pull.head.ref.startsWith(shop.branchPrefix),
          );

        it('judges a settled dev healthy, by the checks of its shape, with no upstream 4xx on the way', async () => {
          sim.control.clearRequests();
          const ladder = await settled(server);
          const dev = stageOf(ladder, 'dev');
          expect(dev.verdict).toBe('healthy');
          expect(dev.healthy).toBe(true);
          const revision = dev.services.storefront.checks!.find(check => check.id === 'revision')!;
          expect(revision.verdict).toBe('healthy');
          expect(revision.detail).toMatch(REVISION_DETAIL[applicationSource]);
          expect(ladder.healthError).toBeUndefined();

          const treeReads = sim.control
            .getRequests('argocd')
            .filter(call => call.path.endsWith('/resource-tree'));
          // ArgoCD 3 keeps Rollout health only in the resource tree; 2.x has it inline.
          expect(treeReads.length > 0).toBe(argocdVersion === '3');
          expect(clientErrors(sim.control.getRequests())).toEqual([]);
        });

        it('Request Promotion dev→test opens one PR and the Gate merges it', async () => {
          shop = await shared.addProduct('alpha/shop');
          await settled(server, shop.ref);
          const response = await requestPromotion({ toStage: 'test', services: ['storefront'] });
          expect(response.status).toBe(201);
          const promotion: Promotion = response.body.promotion;
          const merged = await eventually(async () => {
            const current = await request(server)
              .get(`/api/promotions/promotions/${promotion.id}`)
              .set('Authorization', bob);
            return current.body.promotion?.status === 'merged' ? current.body.promotion : undefined;
          }, SETTLE_MS);
          expect(merged.pullRequest.number).toBe(promotion.pullRequest.number);
          expect((await openPulls()).map(pull => pull.number)).toEqual([promotion.pullRequest.number]);
        });

        it('refuses a promotion out of an unhealthy dev with 409', async () => {
          shop = await shared.addProduct('alpha/shop');
          await settled(server, shop.ref);
          const { digest } = await sim.control.ciPush({
            team: 'alpha',
            product: shop.product,
            service: 'storefront',
            bad: true,
          });
          const aborted = await eventually(async () => {
            const cell = stageOf(await getLadder(server, shop.ref), 'dev').services.storefront;
            return cell.digest === digest && cell.verdict === 'unhealthy' ? cell : undefined;
          }, SETTLE_MS);
          expect(aborted.checks!.find(check => check.id === 'rollout')!.verdict).toBe('unhealthy');

          const response = await requestPromotion({ toStage: 'test', services: ['storefront'] });
          expect(response.status).toBe(409);
          expect(response.body.error.message).toMatch(/not healthy in dev/);
          expect(await openPulls()).toEqual([]);
        });

        it('costs 1 GitHub request (304) and 1 ArgoCD request warm, at most 3 GitHub requests after a Release change, no 4xx', async () => {
          shop = await shared.addProduct('alpha/shop');
          await settled(server, shop.ref);
          await getLadder(server, shop.ref); // fills every cache a view uses

          sim.control.clearRequests();
          const warm = await getLadder(server, shop.ref);
          expect(warm.stages.every(stage => stage.healthy)).toBe(true);
          expect(sim.control.getRequests('github').map(call => call.status)).toEqual([304]);
          expect(sim.control.getRequests('argocd')).toHaveLength(1);
          expect(clientErrors(sim.control.getRequests())).toEqual([]);

          await sim.control.ciPush({ team: 'alpha', product: shop.product, service: 'cart' });
          sim.control.clearRequests();
          await getLadder(server, shop.ref);
          expect(sim.control.getRequests('github').length).toBeLessThanOrEqual(3);
          expect(clientErrors(sim.control.getRequests())).toEqual([]);
        });
      },
    );

    describe.each<ArgocdVersion>(['2', '3'])(
      'ArgoCD %s, app-repo Applications: the Kubernetes health source',
      argocdVersion => {
        // A backend per health source on the shape's simulator; the canary aborted is a Product's of its own.
        const argocdBackend = sharedSimBackend({ sim: shapeSim(argocdVersion, 'app-repo') });
        const kubernetesBackend = sharedSimBackend({ sim: shapeSim(argocdVersion, 'app-repo'), healthSource: 'kubernetes' });
        let sim: RunningSim;
        const servers = {} as Record<HealthSourceKind, Server>;

        beforeAll(() => {
          sim = argocdBackend.sim;
          servers.argocd = argocdBackend.server;
          servers.kubernetes = kubernetesBackend.server;
        });

        it('gives the same ladder as the ArgoCD source, settled and with an aborted canary', async () => {
          const shop = await argocdBackend.addProduct('alpha/shop');
          await settled(servers.argocd, shop.ref);
          const same = async () => {
            const [viaArgoCd, viaKubernetes] = await Promise.all([
              getLadder(servers.argocd, shop.ref),
              getLadder(servers.kubernetes, shop.ref),
            ]);
            expect(comparableLadder(viaKubernetes)).toEqual(comparableLadder(viaArgoCd));
          };
          await same();

          const { digest } = await sim.control.ciPush({
            team: 'alpha',
            product: shop.product,
            service: 'storefront',
            bad: true,
          });
          await eventually(async () => {
            const cell = stageOf(await getLadder(servers.argocd, shop.ref), 'dev').services.storefront;
            return cell.digest === digest && cell.verdict === 'unhealthy' ? cell : undefined;
          }, SETTLE_MS);
          await eventually(async () => {
            const cell = stageOf(await getLadder(servers.kubernetes, shop.ref), 'dev').services.storefront;
            return cell.digest === digest && cell.verdict === 'unhealthy' ? cell : undefined;
          }, SETTLE_MS);
          await same();
        });
      },
    );

    describe('a platform revision GitHub does not know', () => {
      // The platform-repo shape's simulator (Argo CD 3, the simulator's default version); no
      // backend runs on it any more, so the GitHub requests counted are the reader's.
      const shared = sharedSim(shapeSim('3', 'platform-repo'));
      let sim: RunningSim;

      beforeAll(() => {
        ({ sim } = shared);
      });

      it('is asked for once: the failed lookup is cached by revision', async () => {
        const config = new ConfigReader(simConfig(sim, 'argocd'));
        const { platformRepo, releasesPath } = readPromotionsConfig(config);
        const octokit = createOctokit({ config, ...platformRepo, logger: mockServices.logger.mock() });
        const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
        const reader = new PlatformRepoReader(octokit, cache, platformRepo, [releasesPath]);
        const unknown = 'f'.repeat(40);

        sim.control.clearRequests();
        for (let view = 0; view < 3; view++) {
          await expect(reader.fileIndex(unknown, { rememberFailure: true })).rejects.toThrow(/HTTP 404/);
        }
        expect(
          sim.control.getRequests('github').map(call => `${call.status} ${call.path}`),
        ).toEqual([`404 /repos/refplat/platform/git/trees/${unknown}`]);
      });
    });
  });
}
