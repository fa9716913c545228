import { mockCredentials } from '@backstage/backend-test-utils';
import type { RunningSim } from '@refplat/platform-sim';
import type { Ladder, LadderServiceCell } from '@refplat/plugin-promotions-common';
import { parse } from 'yaml';
import request from 'supertest';
import {
  HealthSourceKind,
  eventually,
  readSimFile,
  startPromotionsBackend,
  SWEEP_ONCE,
} from '../__testUtils__/testBackend';
import { isCharged } from '../__testUtils__/githubCost';
import { productHiddenFrom } from '../__testUtils__/hiddenProductPolicy';
import { comparableLadder, expectSettled, getLadder } from '../__testUtils__/ladderViews';
import { backendPerTest, sharedSim, sharedSimBackend } from '../__testUtils__/sharedSimBackend';

const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const bob = mockCredentials.user.header('user:default/bob');

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

function releaseDigests(sim: RunningSim, product: string, stage: string) {
  const file = parse(readSimFile(sim, `gitops/releases/${product}/${stage}.yaml`));
  return Object.fromEntries(
    Object.entries(file.spec.services as Record<string, { digest: string }>).map(
      ([service, entry]) => [service, entry.digest],
    ),
  );
}

function declaredServices(sim: RunningSim, product: string, stage: string): string[] {
  const file = parse(readSimFile(sim, `gitops/environments/${product}/${stage}.yaml`));
  return file.spec.services.map((entry: { name: string }) => entry.name);
}

/**
 * The ladder route: what it reads for a Product, with either health source,
 * its errors and what a view costs upstream. The reads are on the file's
 * FAST_SIM_TIMINGS simulator (the canary test holds the canary, so the step
 * length does not matter), and the tests that change the platform change a
 * Product of their own; the cost and the first image naming need a simulator
 * of their own each.
 */
export function ladderSuite(): void {
  describe('the ladder route', () => {
    describe.each<HealthSourceKind>(['argocd', 'kubernetes'])(
      'GET /products/{team}/{product}/ladder with the %s health source',
      healthSource => {
        // One backend on the file's simulator; the tests that change the platform change a Product of their own.
        const shared = sharedSimBackend({ healthSource });
        let sim: RunningSim;
        let server: Server;

        beforeAll(() => {
          ({ sim, server } = shared);
        });

        it.each(['alpha/shop', 'beta/payments'])(
          'equals the Release records and Environments of %s',
          async product => {
            const ladder = await getLadder(server, product);
            expect(ladder.stages.map(stage => stage.name)).toEqual(STAGES);
            expect(ladder.stages.find(s => s.name === 'prod')!.requiresApproval).toBe(true);
            for (const stage of ladder.stages) {
              const digests = Object.fromEntries(
                Object.entries(stage.services)
                  .filter(([, cell]) => cell.digest)
                  .map(([service, cell]) => [service, cell.digest]),
              );
              expect(digests).toEqual(releaseDigests(sim, product, stage.name));
              expect(stage.environment.declaredServices).toEqual(
                declaredServices(sim, product, stage.name),
              );
              expect(ladder.healthError).toBeUndefined();
              expect(stage.verdict).toBe('healthy');
              expect(stage.healthy).toBe(true);
            }
          },
        );

        it('marks what waits to climb and what is not declared', async () => {
          const ladder = await getLadder(server);
          const stage = (name: string) => ladder.stages.find(s => s.name === name)!;
          expect(stage('test').services.storefront.waitingToClimb).toBe(true);
          expect(stage('prod').services.cart.waitingToClimb).toBe(true);
          expect(stage('uat').services.checkout).toBeUndefined();
          expect(stage('uat').environment.declaredServices).not.toContain('checkout');
          expect(stage('staging').services.storefront.waitingToClimb).toBe(false);
        });

        it('follows a Degraded and an OutOfSync Application', async () => {
          const shop = await shared.addProduct('alpha/shop');
          sim.control.setApp(shop.app('test'), { health: 'Degraded' });
          sim.control.setApp(shop.app('uat'), { sync: 'OutOfSync' });
          await sim.control.reconcileNow();
          const ladder = await getLadder(server, shop.ref);
          const test = ladder.stages.find(s => s.name === 'test')!;
          const uat = ladder.stages.find(s => s.name === 'uat')!;
          expect(test.healthy).toBe(false);
          expect(test.verdict).toBe('unhealthy');
          expect(test.services.storefront.reasons.join(' ')).toMatch(/Degraded/);
          expect(uat.healthy).toBe(false);
          expect(uat.services.cart.healthy).toBe(false);
          expect(uat.services.cart.reasons.join(' ')).toMatch(/OutOfSync/);
          expect(ladder.stages.find(s => s.name === 'staging')!.healthy).toBe(true);
        });

        it('shows a canary in progress after CI pushes to dev, then the new digest healthy', async () => {
          // Held at its first step until seen: on a busy machine a running canary can finish
          // between two ladder views.
          const shop = await shared.addProduct('alpha/shop');
          sim.control.setApp(shop.app('dev'), { freezeCanary: true });
          const { digest } = await sim.control.ciPush({ team: 'alpha', product: shop.product, service: 'storefront' });
          const midCanary = await eventually(async () => {
            const cell = (await getLadder(server, shop.ref)).stages[0].services.storefront;
            return cell.digest === digest && cell.canary && cell.canary.weight > 0 && !cell.canary.complete
              ? cell
              : undefined;
          });
          expect(midCanary.verdict).toBe('progressing');
          expect(midCanary.healthy).toBe(false);
          expect(midCanary.canary!.totalSteps).toBeGreaterThan(1);
          sim.control.setApp(shop.app('dev'), { freezeCanary: false });

          const done = await eventually(async () => {
            const cell = (await getLadder(server, shop.ref)).stages[0].services.storefront;
            return cell.healthy ? cell : undefined;
          });
          expect(done.digest).toBe(digest);
          expect(done.runningDigests).toEqual([digest]);
        });

        it('keeps the digests and says health is unknown when the health source is down', async () => {
          sim.control.setArgocdDown(true);
          const ladder = await getLadder(server);
          expect(ladder.healthError).toMatch(/unreachable/);
          for (const stage of ladder.stages) {
            expect(stage.verdict).toBe('unknown');
            expect(stage.healthy).toBe(false);
            for (const cell of Object.values(stage.services)) {
              expect(cell.healthy).toBe(false);
            }
          }
          expect(ladder.stages[0].services.storefront.digest).toBe(
            releaseDigests(sim, 'alpha/shop', 'dev').storefront,
          );
        });
      },
    );

    describe('the summary ladder (?detail=summary) and the cell route', () => {
      // A backend of its own on the file's simulator, whose policy keeps beta/payments from bob.
      const shared = sharedSimBackend({ backend: { services: [productHiddenFrom('user:default/bob', 'beta/payments')] } });
      let server: Server;

      beforeAll(() => {
        ({ server } = shared);
      });

      /** `authorization` '' sends no token. */
      const get = (path: string, authorization = bob) => {
        const pending = request(server).get(`/api/promotions/products/${path}`);
        return authorization ? pending.set('Authorization', authorization) : pending;
      };
      /** The details, and what the table does not draw: on the cell route only. */
      const LEFT_OUT = ['checks', 'checklist', 'diagnosis', 'rolloutHealth', 'healthySince', 'arrivedAt'];

      it("leaves out every cell's checks, checklist, diagnosis and what the table does not draw, with a brief", async () => {
        const full: Ladder = (await get('alpha/shop/ladder')).body;
        const summaryResponse = await get('alpha/shop/ladder?detail=summary');
        expect(summaryResponse.status).toBe(200);
        const summary: Ladder = summaryResponse.body;
        expect(full.stages.some(stage => Object.values(stage.services).some(cell => cell.checks?.length))).toBe(true);
        expect(summary.stages.map(stage => stage.name)).toEqual(STAGES);
        expect(summary.services).toEqual(full.services);
        for (const stage of summary.stages) {
          const fullStage = full.stages.find(candidate => candidate.name === stage.name)!;
          expect(Object.keys(stage.services)).toEqual(Object.keys(fullStage.services));
          for (const [service, cell] of Object.entries(stage.services)) {
            const fullCell = fullStage.services[service];
            expect({ service, leftOut: LEFT_OUT.filter(field => field in cell) }).toEqual({ service, leftOut: [] });
            expect(cell.brief).toBeDefined();
            expect(cell.digest).toBe(fullCell.digest);
            expect(cell.runningDigests).toEqual(fullCell.runningDigests);
          }
        }
        // The default answer is as it always was: no brief.
        expect(Object.values(full.stages[1].services).some(cell => 'brief' in cell)).toBe(false);
        expect(Buffer.byteLength(summaryResponse.text)).toBeLessThan(Buffer.byteLength(JSON.stringify(full)) / 2);
      });

      it('answers one cell in full: its checks, checklist and diagnosis', async () => {
        const response = await get('alpha/shop/ladder/stages/test/services/storefront');
        expect(response.status).toBe(200);
        const cell: LadderServiceCell = response.body;
        const onLadder = (await getLadder(server)).stages.find(stage => stage.name === 'test')!.services.storefront;
        expect(cell.digest).toBe(onLadder.digest);
        expect(cell.checks!.map(check => check.id)).toEqual(onLadder.checks!.map(check => check.id));
        expect(cell.checklist!.map(item => item.gate)).toEqual(onLadder.checklist!.map(item => item.gate));
        expect(cell.diagnosis?.state).toBeDefined();
        expect(cell).not.toHaveProperty('brief');
      });

      it.each([
        ['a stage the ladder does not have', 'qa', 'storefront'],
        ['a Service no stage has', 'test', 'search'],
        ['a Service uat does not declare', 'uat', 'checkout'],
        ['a name an object answers to', 'test', 'constructor'],
      ])('answers 404 for %s', async (_, stage, service) => {
        const response = await get(`alpha/shop/ladder/stages/${stage}/services/${service}`);
        expect(response.status).toBe(404);
        expect(response.body.error.name).toBe('NotFoundError');
      });

      it('refuses the cell and the summary to whoever the ladder route refuses, as it does', async () => {
        const cases: Array<[string, string]> = [
          [bob, 'beta/payments'],
          ['', 'alpha/shop'],
        ];
        for (const [authorization, product] of cases) {
          const ladder = await get(`${product}/ladder`, authorization);
          expect(ladder.status).toBe(authorization ? 403 : 401);
          for (const path of [`${product}/ladder?detail=summary`, `${product}/ladder/stages/dev/services/storefront`]) {
            const refused = await get(path, authorization);
            expect({ path, status: refused.status, error: refused.body.error }).toEqual({
              path,
              status: ladder.status,
              error: ladder.body.error,
            });
          }
        }
        // Someone else reads the cell bob may not.
        const alice = mockCredentials.user.header('user:default/alice');
        expect((await get('beta/payments/ladder/stages/dev/services/ledger', alice)).status).toBe(200);
      });
    });

    describe('the cost of a view', () => {
      // A simulator of its own, with options no other suite asks for: the counts below hold for
      // the seed's two Products alone (20 watched files, a small repository whose tarball a cold
      // view reads), and its views and push are the seeded alpha/shop's. The Gate's GitHub sweep
      // runs once, at its first run, which the first (cold) view may overlap.
      const shared = sharedSimBackend({
        sim: { canaryStepMs: 400, syncDelayMs: 200, reconcileIntervalMs: 100 },
        backend: { gate: SWEEP_ONCE },
      });
      let sim: RunningSim;
      let server: Server;

      beforeAll(() => {
        ({ sim, server } = shared);
      });

      it('costs at most 5 charged GitHub requests cold (one tarball, no blob), one 304 warm, and re-reads only changed blobs', async () => {
        const githubCalls = () => sim.control.getRequests('github');
        const argocdCalls = () => sim.control.getRequests('argocd');
        /** The Gate's sweep at its first run (two lists) may overlap the first view: not the view's. */
        const viewCalls = () => githubCalls().filter(call => !/\/git\/matching-refs\/|\/pulls$/.test(call.path));

        // The backend's first view (its block's only test): head, tree and the Product's 10 files, none cached.
        sim.control.clearRequests();
        await getLadder(server);
        const cold = viewCalls();
        // The repository is small: its tarball (a 302, its download not charged), not 10 blob reads.
        expect(cold.filter(call => call.path.includes('/git/blobs/'))).toEqual([]);
        expect(cold.filter(call => call.path.includes('/tarball/')).map(call => call.status)).toEqual([302]);
        expect(cold.filter(isCharged).length).toBeLessThanOrEqual(5); // measured 3: head, tree, tarball
        // nothing asked twice: no read abandoned and sent again
        expect(new Set(cold.map(call => call.path)).size).toBe(cold.length);
        // ArgoCD 3 (the simulator's default): one list, then one resource tree per Application.
        const coldArgo = argocdCalls().map(call => call.path);
        expect(coldArgo[0]).toBe('/api/v1/applications');
        expect(coldArgo.slice(1).sort()).toEqual(
          STAGES.map(stage => `/api/v1/applications/alpha-shop-${stage}/resource-tree`).sort(),
        );

        sim.control.clearRequests();
        await getLadder(server);
        expect(githubCalls().map(call => call.status)).toEqual([304]);
        expect(argocdCalls()).toHaveLength(1);

        // beta/payments shares the branch head, the tree and the tarball: its files are cached already.
        sim.control.clearRequests();
        await getLadder(server, 'beta/payments');
        expect(githubCalls().map(call => call.status)).toEqual([304]);

        await sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'cart' });
        sim.control.clearRequests();
        await getLadder(server);
        // The new head (one commit past the known one) brings its changed files: no tree read,
        // and one changed file is read on its own, not through the tarball.
        const changed = githubCalls();
        expect(changed.filter(call => call.path.includes('/git/blobs/'))).toHaveLength(1);
        expect(changed.filter(call => call.path.includes('/git/trees/'))).toHaveLength(0);
        expect(changed).toHaveLength(2);
      });
    });

    describe('ladder route errors, and the ladder through either health source', () => {
      // The cost test's simulator (a settled alpha/shop, quick canaries), and a backend of its own:
      // the cost test's stays cold until that test, whichever block runs first.
      const shared = sharedSimBackend({ sim: { canaryStepMs: 400, syncDelayMs: 200, reconcileIntervalMs: 100 } });
      const startBackend = backendPerTest();
      let sim: RunningSim;
      let server: Server;

      beforeAll(() => {
        ({ sim, server } = shared);
      });

      it('answers 404 for an unknown product, 400 for a malformed name, 401 without a token', async () => {
        const unknown = await request(server)
          .get('/api/promotions/products/alpha/nothing/ladder')
          .set('Authorization', bob);
        expect(unknown.status).toBe(404);
        expect(unknown.body.error.name).toBe('NotFoundError');

        const malformed = await request(server)
          .get('/api/promotions/products/Alpha/shop/ladder')
          .set('Authorization', bob);
        expect(malformed.status).toBe(400);
        expect(malformed.body.error.message).toMatch(/request\/params\/team must match pattern/);

        const anonymous = await request(server).get('/api/promotions/products/alpha/shop/ladder');
        expect(anonymous.status).toBe(401);
      });

      it('gives the same ladder through ArgoCD and through the Kubernetes API', async () => {
        const kubernetesServer = await startBackend(sim, 'kubernetes');
        // Compare a settled platform, not two snapshots of a moving canary.
        await eventually(async () =>
          (await getLadder(server)).stages.every(stage => stage.healthy) ? true : undefined,
        );
        const [viaArgoCd, viaKubernetes] = await Promise.all([
          getLadder(server),
          getLadder(kubernetesServer),
        ]);
        expect(comparableLadder(viaKubernetes)).toEqual(comparableLadder(viaArgoCd));
      });
    });

    describe('a simulator naming images its first way (registry.refplat.org/<team>/<service>)', () => {
      // A simulator of its own: the image naming is the simulator's.
      const shared = sharedSim({ imageNaming: 'team-service' });
      const startBackend = backendPerTest();

      it('reads every stage healthy, each Service running its released digest', async () => {
        const server = await startBackend(shared.sim, 'argocd');
        expectSettled(await getLadder(server));
      });
    });
  });
}
