import { execFileSync } from 'child_process';
import { coreServices, createServiceFactory } from '@backstage/backend-plugin-api';
import { mockCredentials } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { Octokit } from '@octokit/rest';
import type { RunningSim } from '@refplat/platform-sim';
import Knex from 'knex';
import request from 'supertest';
import { addManyProducts } from '../bench/manyProducts';
import { addedProduct, costServices, measure } from '../__testUtils__/githubCost';
import { sharedSim, sharedSimBackend } from '../__testUtils__/sharedSimBackend';
import { eventually, startPromotionsBackend } from '../__testUtils__/testBackend';

const H = 60 * 60 * 1000;
const OWNER = 'refplat';
const REPO = 'platform';
const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const bob = mockCredentials.user.header('user:default/bob');
const digest = (letter: string) => `sha256:${letter.repeat(64)}`;

function releaseYaml(stage: string, web: string): string {
  return [
    'apiVersion: platform.refplat.org/v1beta1',
    'kind: Release',
    'metadata:',
    `  name: gamma-web-${stage}`,
    'spec:',
    `  environmentRef: gamma-web-${stage}`,
    '  services:',
    '    web:',
    `      digest: ${web}`,
    '',
  ].join('\n');
}

/**
 * gamma/web's scripted history, in January 2027 (after the simulator's
 * seed, made now): one commit onboards it on the 3rd, creating its five
 * Release records with a placeholder digest; then digests A–D climb dev →
 * prod at known times, prod rolls B back to A after 1 h, and D fixes C
 * forward 16 h after C. A digest's arrival in dev is CI's push; every later
 * one is a Release PR's squash.
 */
type ScriptStep = [stage: string, letter: string, at: string];
const SCRIPT: ScriptStep[] = [
  ['dev', 'a', '04T00'], ['test', 'a', '04T01'], ['uat', 'a', '04T02'], ['staging', 'a', '04T04'], ['prod', 'a', '04T08'],
  ['dev', 'b', '05T00'], ['test', 'b', '05T02'], ['uat', 'b', '05T03'], ['staging', 'b', '05T06'], ['prod', 'b', '05T10'],
  ['prod', 'a', '05T11'],
  ['dev', 'c', '06T00'], ['test', 'c', '06T01'], ['uat', 'c', '06T03'], ['staging', 'c', '06T04'], ['prod', 'c', '06T12'],
  ['dev', 'd', '07T00'], ['test', 'd', '07T01'], ['uat', 'd', '07T02'], ['staging', 'd', '07T03'], ['prod', 'd', '07T04'],
];
const ONBOARDED_AT = '2027-01-03T00:00:00Z';
const PLACEHOLDER = digest('0');

/** A policy under which no one may read beta/payments. */
const paymentsUnreadable = createServiceFactory({
  service: coreServices.permissions,
  deps: {},
  factory: () => ({
    authorize: async (requests: Array<{ resourceRef?: string }>) =>
      requests.map(r => ({ result: r.resourceRef === 'beta/payments' ? AuthorizeResult.DENY : AuthorizeResult.ALLOW })),
    authorizeConditional: async (requests: unknown[]) => requests.map(() => ({ result: AuthorizeResult.ALLOW })),
  }),
});

/** The PR number the plugin's own promotion of D into prod had. */
const PLUGIN_PR = 120;

/**
 * GitHub alone (Argo CD's reconcile loop hourly), on a simulator of this
 * suite's own: the metrics read every commit of the branch and count every
 * Product with a timeline, so no other suite's commits or Products may be
 * on it (githubCost's suite, on the same options, adds 200).
 */
const METRICS_SIM = { reconcileIntervalMs: 3_600_000 };
const OWN_SIM = 'deliveryMetrics';

/**
 * Delivery metrics from the branch history, on this suite's own simulator,
 * and commits that onboard many Products, on simulators of their own: the
 * tests hold in any order (what they judge is written before any of them).
 */
export function deliveryMetricsSuite() {
  describe('delivery metrics from the platform branch history', () => {
    const shared = sharedSim(METRICS_SIM, OWN_SIM);
    let sim: RunningSim;
    let octokit: Octokit;
    const db = Knex({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });
    const blobShas = new Map<string, string>();

    beforeAll(() => {
      sim = shared.sim;
      octokit = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
    });

    afterAll(async () => {
      // After the backend of 'GET /metrics', stopped when its block ended.
      await db.destroy();
    });

    /** One dated commit on main, as CI's push or a Release PR's squash merge would make it. */
    async function commitScripted([stage, letter, at]: ScriptStep, pr?: number): Promise<string> {
      const path = `gitops/releases/gamma/web/${stage}.yaml`;
      const message = stage === 'dev' ? `ci: gamma/web web ${letter} to dev` : `Promote gamma/web to ${stage} (#${pr})`;
      const date = `2027-01-${at}:00:00Z`;
      const who = { name: 'Platform', email: 'platform@example.com', date };
      const { data } = await octokit.rest.repos.createOrUpdateFileContents({
        owner: OWNER,
        repo: REPO,
        path,
        branch: 'main',
        message,
        content: Buffer.from(releaseYaml(stage, digest(letter))).toString('base64'),
        sha: blobShas.get(path),
        committer: who,
        author: who,
      });
      blobShas.set(path, data.content!.sha!);
      return data.commit.sha!;
    }

    /** One commit creating all of gamma/web's Release records, as a platform team onboarding it would push. */
    async function commitOnboarding(): Promise<void> {
      const { data: main } = await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/main' });
      const { data: parent } = await octokit.rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: main.object.sha });
      const files = STAGES.map(stage => ({ path: `gitops/releases/gamma/web/${stage}.yaml`, content: releaseYaml(stage, PLACEHOLDER) }));
      const { data: tree } = await octokit.rest.git.createTree({
        owner: OWNER,
        repo: REPO,
        base_tree: parent.tree.sha,
        tree: files.map(({ path, content }) => ({ path, mode: '100644' as const, type: 'blob' as const, content })),
      });
      const who = { name: 'Platform', email: 'platform@example.com', date: ONBOARDED_AT };
      const { data: commit } = await octokit.rest.git.createCommit({
        owner: OWNER,
        repo: REPO,
        message: 'Onboard gamma/web',
        tree: tree.sha,
        parents: [parent.sha],
        author: who,
        committer: who,
      });
      await octokit.rest.git.updateRef({ owner: OWNER, repo: REPO, ref: 'heads/main', sha: commit.sha });
      for (const { path, content } of files) {
        blobShas.set(path, execFileSync('git', ['hash-object', '--stdin'], { input: content, encoding: 'utf8' }).trim());
      }
    }

    /** The scan's reading of a Product at the head, then the metrics reading measured. */
    async function scanThenRead(services: Awaited<ReturnType<typeof costServices>>, product = { team: 'gamma', product: 'web' }) {
      services.reader.forgetHead();
      await services.knownProducts.require(product);
      const { cost, result } = await measure(sim, () => services.timelineReader.readNewCommits());
      return { read: result, charged: sim.control.getRequests('github').filter(call => call.status !== 304).map(call => `${call.method} ${call.path}`), cost };
    }

    /** What the scan read of the seed, of each scripted commit and of the PR merged by hand, recorded as it ran. */
    const history = {} as {
      seedCommits: number;
      backfill: Awaited<ReturnType<typeof scanThenRead>>;
      steps: Array<{ read: number; charged: string[]; head: string; sha: string }>;
      afterLastStep: number;
      byHand: { pull: number; read: number; charged: string[] };
    };

    /**
     * The scripted history, read as the scan reads it, a restart in the middle: before any test,
     * whichever order they run in, as each of them (and the metrics route's) judges it.
     */
    async function writeAndReadScriptedHistory() {
      // gamma/web's onboarding is pushed with the seed: the backfill reads it too
      await commitOnboarding();
      let services = await costServices(sim, db);
      history.seedCommits = Number(
        execFileSync('git', ['--git-dir', sim.repoDir, 'rev-list', '--first-parent', '--count', 'main'], { encoding: 'utf8' }),
      );
      history.backfill = await scanThenRead(services, { team: 'alpha', product: 'shop' });

      const restartAt = 15;
      history.steps = [];
      for (let step = 0; step < SCRIPT.length; step++) {
        const sha = await commitScripted(SCRIPT[step], 100 + step);
        if (step === PLUGIN_PR - 100) {
          await db('promotions').insert({
            id: '00000000-0000-4000-8000-000000000120',
            team: 'gamma',
            product: 'web',
            from_stage: 'staging',
            to_stage: 'prod',
            services: JSON.stringify({ web: digest('d') }),
            previous_services: JSON.stringify({ web: digest('c') }),
            fingerprint: 'f'.repeat(64),
            kind: 'promotion',
            status: 'merged',
            requested_by: 'user:default/bob',
            pr_number: PLUGIN_PR,
            created_at: '2027-01-07T03:30:00.000Z',
            updated_at: '2027-01-07T04:00:00.000Z',
          });
        }
        // A restart: a new replica on the same database, with a cold cache, after one commit it missed.
        if (step === restartAt) services = await costServices(sim, db);
        const { read, charged } = await scanThenRead(services);
        history.steps.push({ read, charged, head: await services.reader.headCommit(), sha });
      }
      // the head unchanged: nothing to read
      history.afterLastStep = (await scanThenRead(services)).read;
    }

    /** A PR merged by hand into alpha/shop's test, outside the plugin, and the scan's reading of it. */
    async function mergeByHandAndRead() {
      const services = await costServices(sim, db);
      const { data: main } = await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/main' });
      await octokit.rest.git.createRef({ owner: OWNER, repo: REPO, ref: 'refs/heads/by-hand', sha: main.object.sha });
      const path = 'gitops/releases/alpha/shop/test.yaml';
      const { data: file } = await octokit.rest.repos.getContent({ owner: OWNER, repo: REPO, path, ref: 'main' });
      const text = Buffer.from((file as { content: string }).content, 'base64').toString('utf8');
      const edited = text.replace(/(storefront:\s*\n\s*digest: )sha256:[0-9a-f]{64}/, `$1${digest('e')}`);
      if (edited === text) throw new Error(`No storefront digest to edit in ${path}`);
      await octokit.rest.repos.createOrUpdateFileContents({
        owner: OWNER,
        repo: REPO,
        path,
        branch: 'by-hand',
        message: 'Hand-made release of storefront to test',
        content: Buffer.from(edited).toString('base64'),
        sha: (file as { sha: string }).sha,
      });
      const { data: pull } = await octokit.rest.pulls.create({ owner: OWNER, repo: REPO, head: 'by-hand', base: 'main', title: 'storefront to test by hand' });
      await octokit.rest.pulls.merge({ owner: OWNER, repo: REPO, pull_number: pull.number, merge_method: 'squash' });
      const { read, charged } = await scanThenRead(services, { team: 'alpha', product: 'shop' });
      history.byHand = { pull: pull.number, read, charged };
    }

    beforeAll(async () => {
      await writeAndReadScriptedHistory();
      await mergeByHandAndRead();
    });

    it("reads the seed history once, then each scripted commit from the scan's head check at no request of its own, resuming after a restart", async () => {
      expect(history.backfill.read).toBe(history.seedCommits);
      // Every commit but the head, which the scan's head check read (GET commits/heads/main answers it whole).
      expect(history.backfill.charged.filter(call => call.includes('/commits/'))).toHaveLength(history.seedCommits - 1);
      expect(history.steps).toHaveLength(SCRIPT.length);
      for (const step of history.steps) {
        // One commit each; the scan's head check read it (after the restart too: the new replica's own check).
        expect(step).toEqual({ read: 1, charged: [], head: step.sha, sha: step.sha });
      }
      expect(history.afterLastStep).toBe(0);
    });

    it('counts a PR merged by hand, outside the plugin, with its number and no promotion', async () => {
      expect(history.byHand).toMatchObject({ read: 1, charged: [] });
      const rows = await db('digest_arrivals').where({ team: 'alpha', product: 'shop', stage: 'test', digest: digest('e') });
      expect(rows).toEqual([expect.objectContaining({ service: 'storefront', pr_number: history.byHand.pull, promotion_id: null })]);
      const joined = await db('digest_arrivals').where({ pr_number: PLUGIN_PR });
      expect(joined).toEqual([
        expect.objectContaining({ stage: 'prod', digest: digest('d'), promotion_id: '00000000-0000-4000-8000-000000000120' }),
      ]);
    });

    describe('GET /metrics', () => {
      const metrics = sharedSimBackend({
        sim: METRICS_SIM,
        ownSim: OWN_SIM,
        backend: { knex: db, services: [paymentsUnreadable], metrics: { frequency: { seconds: 1 } } },
      });
      let server: Awaited<ReturnType<typeof startPromotionsBackend>>;
      beforeAll(() => {
        server = metrics.server;
      });
      const get = (query: string) => request(server).get(`/api/promotions/metrics${query}`).set('Authorization', bob);

      it('equals the hand-computed metrics of the scripted history', async () => {
        const response = await get('?scope=product:gamma/web&from=2027-01-04&to=2027-01-18');
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          scope: 'product:gamma/web',
          products: ['gamma/web'],
          from: '2027-01-04T00:00:00.000Z',
          to: '2027-01-18T00:00:00.000Z',
          // two weeks: 4 commits a stage, 5 in prod with the rollback
          deploymentFrequency: STAGES.map(stage => ({
            stage,
            deployments: stage === 'prod' ? 5 : 4,
            perWeek: stage === 'prod' ? 2.5 : 2,
          })),
          leadTime: {
            // A 8 h, B 10 h, C 12 h, D 4 h → [4, 8, 10, 12]
            samples: 4,
            medianMs: 9 * H,
            p90Ms: 11.4 * H,
            rungs: [
              { fromStage: 'dev', toStage: 'test', samples: 4, medianMs: 1 * H, p90Ms: 1.7 * H }, // [1, 2, 1, 1]
              { fromStage: 'test', toStage: 'uat', samples: 4, medianMs: 1 * H, p90Ms: 1.7 * H }, // [1, 1, 2, 1]
              { fromStage: 'uat', toStage: 'staging', samples: 4, medianMs: 1.5 * H, p90Ms: 2.7 * H }, // [2, 3, 1, 1]
              { fromStage: 'staging', toStage: 'prod', samples: 4, medianMs: 4 * H, p90Ms: 6.8 * H }, // [4, 4, 8, 1]
            ],
          },
          // A, B, C, D; B rolled back after 1 h, C fixed forward after 16 h
          changeFailureRate: { changes: 4, failures: 2, rollbacks: 1, fixForwards: 1, rate: 0.5 },
          timeToRestore: { samples: 2, medianMs: 8.5 * H, p90Ms: 14.5 * H },
        });
      });

      it("counts nothing for gamma/web's onboarding, which created its Release records", async () => {
        const rows = await db('digest_arrivals').where({ team: 'gamma', product: 'web', digest: PLACEHOLDER });
        // the simulator reports the created files with status `added`, as GitHub does
        expect(Object.fromEntries(rows.map(row => [row.stage, Boolean(row.onboarding)]))).toEqual(
          Object.fromEntries(STAGES.map(stage => [stage, true])),
        );
        const response = await get('?scope=product:gamma/web&from=2027-01-03&to=2027-01-04');
        expect(response.status).toBe(200);
        expect(response.body.deploymentFrequency).toEqual(STAGES.map(stage => ({ stage, deployments: 0, perWeek: 0 })));
        expect(response.body.leadTime.samples).toBe(0);
        expect(response.body.changeFailureRate.changes).toBe(0);
      });

      it('dates the hand-merged digest on the ladder and the matrix by the branch history', async () => {
        const [row] = await db('digest_arrivals').where({ team: 'alpha', product: 'shop', stage: 'test', digest: digest('e') });
        const { data: merge } = await octokit.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: row.commit_sha });
        const mergedAt = new Date(merge.commit.committer!.date!).toISOString().replace('.000Z', 'Z');

        const ladder = await request(server).get('/api/promotions/products/alpha/shop/ladder').set('Authorization', bob);
        expect(ladder.status).toBe(200);
        const test = ladder.body.stages.find((stage: { name: string }) => stage.name === 'test');
        expect(test.services.storefront).toMatchObject({ digest: digest('e'), arrivedAt: mergedAt });

        // uat is behind test since that merge, not since the plugin first saw storefront healthy there
        const overview = await request(server).get('/api/promotions/overview').set('Authorization', bob);
        const shop = overview.body.rows.find((entry: { product: string }) => entry.product === 'alpha/shop');
        const uat = shop.cells[overview.body.stages.indexOf('uat')];
        expect(uat).toMatchObject({ matchesBelow: false, behindSince: mergedAt });
      });

      it("reads a new commit on the backend's own schedule", async () => {
        // After the scripted fortnight, the other tests' window: they count the same in any order.
        await commitScripted(['dev', 'f', '20T00']);
        const dev = await eventually(async () => {
          const { body } = await get('?scope=product:gamma/web&from=2027-01-19&to=2027-01-26');
          const frequency = body.deploymentFrequency.find((f: { stage: string }) => f.stage === 'dev');
          return frequency.deployments === 1 ? frequency : undefined;
        });
        expect(dev).toEqual({ stage: 'dev', deployments: 1, perWeek: 1 });
      });

      it('answers 403 for a Product the caller may not read', async () => {
        const response = await get('?scope=product:beta/payments');
        expect(response.status).toBe(403);
      });

      it('counts the organisation and a team over the Products the caller may read, the hand-merged PR among them', async () => {
        const now = Date.now();
        const window = `from=${new Date(now - H).toISOString()}&to=${new Date(now + H).toISOString()}`;
        const org = await get(`?scope=org&${window}`);
        expect(org.status).toBe(200);
        expect(org.body.products).toEqual(['alpha/shop', 'gamma/web']);
        expect((await get(`?scope=team:beta&${window}`)).body.products).toEqual([]);
        const team = await get(`?scope=team:alpha&${window}`);
        expect(team.body.products).toEqual(['alpha/shop']);
        // the seed is dated January 2026 and gamma/web January 2027: in these two hours only the PR
        // merged by hand into alpha/shop's test, 1 in 2 h = 84 a week
        const byHand = STAGES.map(stage => ({ stage, deployments: stage === 'test' ? 1 : 0, perWeek: stage === 'test' ? 84 : 0 }));
        expect(team.body.deploymentFrequency).toEqual(byHand);
        expect(org.body.deploymentFrequency).toEqual(byHand);
      });

      it.each([
        ['', /Missing scope/],
        ['?scope=everyone', /Invalid scope "everyone": use scope=org, scope=team:<team> or scope=product:<team>\/<product>/],
        ['?scope=org&from=last-week', /Invalid from "last-week": use an ISO 8601 date/],
        ['?scope=org&from=2027-01-18&to=2027-01-04', /must be before to/],
      ])('answers 400 to %p', async (query, message) => {
        const response = await get(query);
        expect(response.status).toBe(400);
        expect(response.body.error.message).toMatch(message);
      });

      it('answers 401 without a signed-in caller', async () => {
        expect((await request(server).get('/api/promotions/metrics?scope=org')).status).toBe(401);
      });
    });
  });

  describe('a commit that onboards many Products', () => {
    // A simulator for each test: each onboards Products of the same names, on the seed alone.
    const forty = sharedSim(METRICS_SIM, 'onboarding-40');
    const thousand = sharedSim(METRICS_SIM, 'onboarding-1000');

    /** `count` Products onboarded in one commit on `shared`'s simulator, and the metrics' reading of it measured. */
    async function onboardInOneCommit(shared: ReturnType<typeof sharedSim>, count: number) {
      const { sim } = shared;
      const services = await costServices(sim);
      // The seed first, so that only the onboarding commit is new.
      await services.timelineReader.readNewCommits();
      addManyProducts(sim.repoDir, count);
      services.reader.forgetHead();
      return { sim, services, ...(await measure(sim, () => services.timelineReader.readNewCommits())) };
    }

    it('is read through one tarball, not one blob read per Release record', async () => {
      const { services, cost, result } = await onboardInOneCommit(forty, 40);
      expect(result).toBe(1);
      // the head check, the commit's 400 files in two pages (200 Release records), the tarball (302) and its download
      const commit = expect.stringMatching(/^200 GET \/repos\/refplat\/platform\/commits\/[0-9a-f]{40}$/);
      expect(cost.calls.filter(call => !call.includes('/commits/heads/'))).toEqual([
        commit,
        commit,
        expect.stringMatching(/^302 GET \/repos\/refplat\/platform\/tarball\/[0-9a-f]{40}$/),
        expect.stringMatching(/^200 GET \/refplat\/platform\/legacy\.tar\.gz\/[0-9a-f]{40}$/),
      ]);
      const position = await services.digestTimelines.position(services.timelineReader.branch);
      expect(position?.cursor).toBe(await services.reader.headCommit());
      expect(await services.digestTimelines.arrivalsAfter(addedProduct(39), 'dev', position!.completeAfterId)).toEqual([
        expect.objectContaining({ service: 'web', onboarding: true }),
        expect.anything(),
        expect.anything(),
      ]);
    });

    it('keeps a commit of more files than GitHub lists (3,000) as a gap in the history, with no arrivals', async () => {
      const { sim, services, result } = await onboardInOneCommit(thousand, 1000);
      expect(result).toBe(1);
      // ten pages of 300 files, and nothing read of them
      const calls = sim.control.getRequests('github').map(call => `${call.status} ${call.method} ${call.path}`);
      expect(calls.filter(call => !call.includes('/commits/heads/'))).toEqual(
        Array(10).fill(expect.stringMatching(/^200 GET \/repos\/refplat\/platform\/commits\/[0-9a-f]{40}$/)),
      );
      const position = await services.digestTimelines.position(services.timelineReader.branch);
      expect(position?.cursor).toBe(await services.reader.headCommit());
      expect(await services.digestTimelines.arrivalsAfter(addedProduct(0), 'dev', position!.completeAfterId)).toEqual([]);
    });
  });
}
