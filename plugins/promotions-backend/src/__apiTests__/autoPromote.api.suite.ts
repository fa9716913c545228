import { TestDatabases, mockCredentials } from '@backstage/backend-test-utils';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { Octokit } from '@octokit/rest';
import Knex from 'knex';
import { parse } from 'yaml';
import request from 'supertest';
import type { Promotion } from '@refplat/plugin-promotions-common';
import { backendPerTest } from '../__testUtils__/sharedSimBackend';
import { eventually, readSimFile, startPromotionsBackend } from '../__testUtils__/testBackend';
import { AUTO_PROMOTER } from '../promotions/AutoPromoter';

const bob = mockCredentials.user.header('user:default/bob');
const AUTO = { enabled: true, frequency: { seconds: 2 } };

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

function digestIn(sim: RunningSim, stage: string, service = 'storefront', product = 'shop'): string {
  return parse(readSimFile(sim, `gitops/releases/alpha/${product}/${stage}.yaml`)).spec.services[service]?.digest;
}

async function promotions(server: Server, product = 'shop'): Promise<Promotion[]> {
  const response = await request(server)
    .get(`/api/promotions/products/alpha/${product}/promotions`)
    .set('Authorization', bob);
  return response.body.items;
}

/** Every pull request on the simulated platform repo, open or not. */
function allPullRequests(sim: RunningSim) {
  const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
  return github.paginate(github.rest.pulls.list, { owner: 'refplat', repo: 'platform', state: 'all', per_page: 100 });
}

type Decision = { toStage: string; service: string; decision: string; reason: string; digest?: string };

async function autoDecisions(server: Server) {
  const response = await request(server)
    .get('/api/promotions/products/alpha/shop/auto-promotions')
    .set('Authorization', bob);
  return response.body.items as Decision[];
}

/**
 * Waits for the auto-promoter's latest run to have decided about `service`
 * into `toStage` for `digest` with a reason matching `reason`: proof that a
 * run saw the state a test arranged, where a fixed sleep only hopes for it.
 */
function decided(server: Server, toStage: string, digest: string, reason: RegExp, service = 'storefront') {
  const matches = (d: Decision) =>
    d.toStage === toStage && d.service === service && d.digest === digest && reason.test(d.reason);
  return eventually(async () => (await autoDecisions(server)).find(matches), 60_000);
}

const simOptions = { canaryStepMs: 200, syncDelayMs: 200, reconcileIntervalMs: 100 };

/**
 * The auto-promoter keeps a simulator per test, started and stopped around
 * it, not the file's shared ones: it moves every Product that is not opted
 * out, and the test catalog opts a Product out only with all the Products
 * added like it. On one simulator for the suite, each test climbing a Product
 * of its own, every test's backend also climbed alpha/shop and the earlier
 * tests' Products: these six tests took 182 s instead of 119 s (one run
 * each, on a loaded machine), to save five simulator starts of 0.3 to 1 s
 * each. A test's backends stop after it,
 * before its simulator, so that no auto-promoter or Gate polls a simulator
 * that is gone while the next tests run.
 */
export function autoPromoteSuite() {
  describe('the auto-promoter against the simulator', () => {
    // Declared before the simulator's afterEach: afterEach hooks run in the order declared.
    const startBackend = backendPerTest();
    let sim: RunningSim;

    beforeEach(async () => {
      sim = await startPlatformSim(simOptions);
    });

    afterEach(async () => {
      await sim.stop();
    });

    it('climbs a new digest one rung per run to staging, never into prod; a rollback holds until resumed', async () => {
      const server = await startBackend(sim, 'argocd', { autoPromote: AUTO });
      const before = digestIn(sim, 'staging');
      const { digest } = await sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'storefront' });

      // Three rungs, each a canary and a Gate merge: 4 minutes for a 2-core machine busy with other suites.
      await eventually(async () => (digestIn(sim, 'staging') === digest ? true : undefined), 240_000);
      // A run that saw staging carry it has decided, and prod is not among its rungs.
      await decided(server, 'staging', digest, /staging already carries it/);
      expect(digestIn(sim, 'prod')).not.toBe(digest);

      const climbed = (await promotions(server))
        .filter(p => p.services.storefront === digest)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      expect(climbed.map(p => p.toStage)).toEqual(['test', 'uat', 'staging']);
      expect(climbed.every(p => p.requestedBy === AUTO_PROMOTER && p.status === 'merged')).toBe(true);
      for (let i = 1; i < climbed.length; i++) {
        // one rung per run: the next rung is requested only after the one below merged
        expect(climbed[i].createdAt >= climbed[i - 1].updatedAt).toBe(true);
      }
      expect((await promotions(server)).some(p => p.toStage === 'prod')).toBe(false);
      // Each rung waited in the write queue for its PR; none waits now.
      const queue = await request(server).get('/api/promotions/write-queue').set('Authorization', bob);
      expect(queue.status).toBe(200);
      expect(queue.body).toEqual({ waiting: 0 });
      expect((await request(server).get('/api/promotions/write-queue')).status).toBe(401);
      const decisions = await autoDecisions(server);
      expect(decisions.find(d => d.toStage === 'uat' && d.service === 'checkout')).toMatchObject({
        decision: 'refuse',
        reason: expect.stringMatching(/does not declare checkout/),
      });
      expect(decisions.some(d => d.toStage === 'prod')).toBe(false);

      const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
      const { data: pr } = await github.rest.pulls.get({
        owner: 'refplat',
        repo: 'platform',
        pull_number: climbed[0].pullRequest.number,
      });
      expect(pr.body).toContain(AUTO_PROMOTER);

      // roll staging back: the auto-promoter must not undo it while the hold stands
      const rollback = await request(server)
        .post('/api/promotions/products/alpha/shop/rollbacks')
        .set('Authorization', bob)
        .send({ stage: 'staging', services: { storefront: before } });
      expect(rollback.status).toBe(201);
      expect(rollback.body.promotion).toMatchObject({ kind: 'rollback', toStage: 'staging' });
      await eventually(async () => (digestIn(sim, 'staging') === before ? true : undefined), 60_000);
      // A run that would have climbed it again skipped it for the hold.
      expect(await decided(server, 'staging', digest, /held in staging/)).toMatchObject({ decision: 'skip' });
      expect(digestIn(sim, 'staging')).toBe(before);
      const holds = await request(server).get('/api/promotions/products/alpha/shop/holds').set('Authorization', bob);
      expect(holds.body.items).toEqual([
        expect.objectContaining({ stage: 'staging', service: 'storefront', placedBy: 'user:default/bob' }),
      ]);

      const resume = await request(server)
        .delete('/api/promotions/products/alpha/shop/holds/staging/storefront')
        .set('Authorization', bob);
      expect(resume.status).toBe(200);
      await eventually(async () => (digestIn(sim, 'staging') === digest ? true : undefined), 60_000);
    }, 600_000);

    /**
     * Which digest reached dev first comes from git (a history list and a read
     * per version) or, with the delivery metrics on, from the timelines they
     * recorded since the seed's first commit, at no history read. With a
     * backfill too short to reach the seed's first commit, dev's Release
     * predates the timelines: it is read from git whole once and kept
     * (`release_baselines`), and its later versions come from the timelines.
     */
    it.each([
      ['from the Release history on GitHub', { enabled: false }, true, 0],
      ['from the delivery-metrics timelines', { enabled: true, frequency: { seconds: 1 } }, false, 0],
      ['from git once, then the delivery-metrics timelines', { enabled: true, frequency: { seconds: 1 }, backfillCommits: 1 }, undefined, 1],
    ])('never carries an older digest up: after a rollback below, the newer digest stays, and the decision says why (%s)', async (_, metrics, readsGitHistory, baselines) => {
      const knex = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });
      const server = await startBackend(sim, 'argocd', { autoPromote: AUTO, metrics, knex });
      const older = digestIn(sim, 'dev', 'cart');
      const { digest: newer } = await sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'cart' });
      await eventually(async () => (digestIn(sim, 'test', 'cart') === newer ? true : undefined), 120_000);

      const rollback = await request(server)
        .post('/api/promotions/products/alpha/shop/rollbacks')
        .set('Authorization', bob)
        .send({ stage: 'dev', services: { cart: older } });
      expect(rollback.status).toBe(201);
      // Reads from here are the runs' (the rollback itself reads dev's history to check the digest ran there).
      const rolledBackAt = new Date().toISOString();
      await eventually(async () => (digestIn(sim, 'dev', 'cart') === older ? true : undefined), 60_000);

      // A run that saw dev's older digest declined to move it over test's newer one.
      expect(await decided(server, 'test', older, /would be a downgrade/, 'cart')).toMatchObject({
        decision: 'skip',
        reason: expect.stringMatching(/reached dev before test's/),
      });
      expect(digestIn(sim, 'test', 'cart')).toBe(newer);
      const historyReads = sim.control
        .getRequests('github')
        .filter(call => call.at >= rolledBackAt)
        .filter(call => call.path.endsWith('/commits') || call.path.endsWith('/contents/gitops/releases/alpha/shop/dev.yaml'));
      // undefined: either, as the first judgement may come before the timelines' first reading.
      expect(historyReads.length > 0).toBe(readsGitHistory ?? historyReads.length > 0);
      expect(await knex('release_baselines').where({ team: 'alpha', product: 'shop', stage: 'dev' })).toHaveLength(baselines);
      expect((await promotions(server)).filter(p => p.toStage === 'test' && p.services.cart === older)).toEqual([]);
      // The ladder tells the same story (from the judgement the run made): dev's digest is older,
      // so it does not wait to climb. A ladder built before the run judged may be served a moment longer.
      const testCart = await eventually(async () => {
        const ladder = await request(server).get('/api/promotions/products/alpha/shop/ladder').set('Authorization', bob);
        const cell = ladder.body.stages.find((s: { name: string }) => s.name === 'test').services.cart;
        return cell.incomingAge ? cell : undefined;
      }, 30_000);
      expect(testCart).toMatchObject({
        waitingToClimb: false,
        incomingAge: { age: 'older', reason: expect.stringMatching(/reached dev before test's/) },
      });
    });

    it('stops a digest that goes Degraded in test before uat', async () => {
      const server = await startBackend(sim, 'argocd', { autoPromote: AUTO });
      const { digest } = await sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'storefront' });
      sim.control.setApp('alpha-shop-test', { health: 'Degraded' });
      await eventually(async () => (digestIn(sim, 'test') === digest ? true : undefined), 60_000);
      expect(await decided(server, 'uat', digest, /not healthy in test/)).toMatchObject({ decision: 'skip' });
      expect(digestIn(sim, 'uat')).not.toBe(digest);
    });

    it('opens each Product\'s promotion exactly once in a bulk run that GitHub meets with secondary rate limits', async () => {
      const climbing = ['shop-1', 'shop-2', 'shop-3'];
      for (const product of climbing) await sim.control.addProduct({ like: 'alpha/shop', product });
      const server = await startBackend(sim, 'argocd', { autoPromote: AUTO });
      // Four PR creations answered 403 with retry-after. octokit waits and tries each twice more;
      // a creation that meets three in a row fails its promotion (which tries depend on timing).
      const limit = sim.control.addFault({
        target: 'github',
        method: 'POST',
        path: '/pulls',
        count: 4,
        kind: 'secondary-rate-limit',
      });
      const pushed: Record<string, string> = {};
      for (const product of climbing) {
        pushed[product] = (await sim.control.ciPush({ team: 'alpha', product, service: 'storefront' })).digest;
      }

      const platform = sim;
      for (const product of climbing) {
        const arrived = async () => (digestIn(platform, 'test', 'storefront', product) === pushed[product] ? true : undefined);
        await eventually(arrived, 180_000);
      }
      expect(limit.remaining).toBe(0);
      // Nothing lost: every Product reached test, a failed opening made again by a later run.
      // Nothing duplicated: one PR per Product into test, merged, and no promotion's PR twice.
      const pulls = await allPullRequests(sim);
      for (const product of climbing) {
        const intoTest = pulls.filter(pr => pr.head.ref.startsWith(`promotions/alpha-${product}-test-`));
        expect(intoTest).toEqual([expect.objectContaining({ merged_at: expect.any(String) })]);
        const records = (await promotions(server, product)).filter(p => p.toStage === 'test');
        expect(records.filter(p => p.status === 'merged')).toHaveLength(1);
      }
      const failed = (await Promise.all(climbing.map(product => promotions(server, product))))
        .flat()
        .filter(p => p.status === 'failed');
      for (const promotion of failed) {
        expect(promotion).toMatchObject({ toStage: 'test', statusReason: expect.stringMatching(/rate limit/i) });
      }
      const fingerprints = pulls.map(pr => pr.body?.match(/fingerprint=(\w+)/)?.[1]);
      expect(new Set(fingerprints).size).toBe(fingerprints.length);
    });

    it('in fleet mode, Products climbing the same rung share a Release PR, each with its own record and Release file', async () => {
      const climbing = ['shop-1', 'shop-2', 'shop-3'];
      for (const product of climbing) await sim.control.addProduct({ like: 'alpha/shop', product });
      const pushed: Record<string, string> = {};
      for (const product of climbing) {
        pushed[product] = (await sim.control.ciPush({ team: 'alpha', product, service: 'storefront' })).digest;
      }
      // All three run healthy in dev before the first run: one run climbs them together.
      await eventually(async () => {
        const { apps } = await sim.control.getState();
        const healthy = climbing.every(product => {
          const app = apps.find(candidate => candidate.name === `alpha-${product}-dev`);
          return app?.healthStatus === 'Healthy' && app.syncStatus === 'Synced' && app.images.some(image => image.endsWith(pushed[product]));
        });
        return healthy || undefined;
      }, 120_000);
      const server = await startBackend(sim, 'argocd', { autoPromote: { ...AUTO, fleet: { enabled: true } } });

      for (const product of climbing) {
        const arrived = async () => (digestIn(sim, 'test', 'storefront', product) === pushed[product] ? true : undefined);
        await eventually(arrived, 180_000);
      }
      const intoTest = (await allPullRequests(sim)).filter(pr => pr.head.ref.startsWith('promotions/fleet/test-'));
      // A run's promotions share a PR; the drain may start while the run still queues, so the first PR may hold fewer.
      expect(intoTest.length).toBeLessThan(climbing.length);
      expect(intoTest.every(pr => pr.merged_at)).toBe(true);
      const marked = intoTest.flatMap(pr => [...(pr.body ?? '').matchAll(/promotions:key=alpha\/(shop-\d)\/test /g)].map(m => m[1]));
      expect(marked.sort()).toEqual(climbing);
      for (const product of climbing) {
        const [record] = (await promotions(server, product)).filter(p => p.toStage === 'test' && p.services.storefront === pushed[product]);
        expect(record).toMatchObject({ status: 'merged', requestedBy: AUTO_PROMOTER });
        expect(intoTest.map(pr => pr.number)).toContain(record.pullRequest.number);
      }
    });

    it('answers 400 to a rollback to a tag and 409 to a digest the stage never ran', async () => {
      const server = await startBackend(sim, 'argocd');
      const tag = await request(server)
        .post('/api/promotions/products/alpha/shop/rollbacks')
        .set('Authorization', bob)
        .send({ stage: 'staging', services: { storefront: 'latest' } });
      expect(tag.status).toBe(400);
      const never = await request(server)
        .post('/api/promotions/products/alpha/shop/rollbacks')
        .set('Authorization', bob)
        .send({ stage: 'staging', services: { storefront: `sha256:${'7'.repeat(64)}` } });
      expect(never.status).toBe(409);
      expect(never.body.error.message).toMatch(/not in the recent history/);
    });
  });

  const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });

  describe.each(databases.eachSupportedId())('two auto-promoting replicas on one %p database', databaseId => {
    // A simulator for the test; its backends stop after it, before the simulator
    // (afterEach hooks run in the order declared).
    const startBackend = backendPerTest();
    let sim: RunningSim;

    beforeEach(async () => {
      sim = await startPlatformSim(simOptions);
    });

    afterEach(async () => {
      await sim.stop();
    });

    it('open no duplicate PRs', async () => {
      const knex = await databases.init(databaseId);
      await startBackend(sim, 'argocd', { knex, autoPromote: AUTO });
      await startBackend(sim, 'argocd', { knex, autoPromote: AUTO });
      const { digest } = await sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'storefront' });
      await eventually(async () => (digestIn(sim, 'uat') === digest ? true : undefined), 120_000);
      const pulls = await allPullRequests(sim);
      const fingerprints = pulls.map(pr => pr.body?.match(/fingerprint=(\w+)/)?.[1]);
      expect(fingerprints.every(Boolean)).toBe(true);
      expect(new Set(fingerprints).size).toBe(fingerprints.length);
    });
  });
}
