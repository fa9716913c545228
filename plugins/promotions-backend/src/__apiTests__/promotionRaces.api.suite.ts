import { TestDatabases, mockCredentials } from '@backstage/backend-test-utils';
import { Octokit } from '@octokit/rest';
import type { RunningSim } from '@refplat/platform-sim';
import type { Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import request from 'supertest';
import { parse } from 'yaml';
import { eventually, readSimFile, startPromotionsBackend } from '../__testUtils__/testBackend';
import { backendPerTest, sharedSim, TestProduct } from '../__testUtils__/sharedSimBackend';
import { parseMarker } from '../promotions/pullRequestText';

const REPO = { owner: 'refplat', repo: 'platform' };
/** Each pair of the three different promotions races at least once, and one pair races twice. */
const ROUNDS = 4;
const LIVE = ['open', 'awaiting-approval', 'approved'];

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

/**
 * Replicas racing (was promotionRaces.api.test.ts), on the file's simulator.
 * Rounds of paced GitHub writes (1 s apart, 3 s for PRs): ~35 s each on a busy
 * CI box, so a file running it needs a long timeout (600 s).
 */
export function promotionRacesSuite() {
  describe('promotion races', () => {
    const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
    /** PostgreSQL where the CI has one (real concurrency), else SQLite: one run keeps the suite's time modest. */
    const [DATABASE] = databases.eachSupportedId()[0];

    /**
     * Two replicas (separate Gates, caches and GitHub clients) on one database,
     * hit at once with identical and different promotions into prod, round
     * after round. Whatever interleaving happens, GitHub ends with at most one
     * open promotion PR for the stage, owned by its live promotion, no branch
     * left behind, each audit event recorded once, and no answer is a 5xx.
     */
    describe(`two replicas racing on one ${DATABASE} database`, () => {
      // The file's simulator; the replicas are the test's (stopped after it), and so is the Product they race on.
      const shared = sharedSim();
      const startReplica = backendPerTest();
      let sim: RunningSim;
      let replicas: Server[];
      let github: Octokit;
      let shop: TestProduct;

      beforeEach(async () => {
        sim = shared.sim;
        shop = await shared.addProduct('alpha/shop');
        const knex = await databases.init(DATABASE);
        const gate = { orphanGracePeriod: { seconds: 1 } };
        replicas = [
          await startReplica(sim, 'argocd', { knex, gate }),
          await startReplica(sim, 'argocd', { knex, gate }),
        ];
        github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
      });

      const asBob = mockCredentials.user.header('user:default/bob');
      const get = async (path: string) =>
        (await request(replicas[0]).get(`/api/promotions${path}`).set('Authorization', asBob)).body;

      /** staging gets a second differing service, so prod has three different promotions to race. */
      async function stagingMovesOn() {
        const path = shop.releasePath('staging');
        const text = readSimFile(sim, path);
        const { data: file } = await github.rest.repos.getContent({ ...REPO, path });
        const newStorefront = `sha256:${'5'.repeat(64)}`;
        await github.rest.repos.createOrUpdateFileContents({
          ...REPO,
          path,
          message: 'storefront hotfix in staging',
          sha: (file as { sha: string }).sha,
          content: Buffer.from(text.replace(parse(text).spec.services.storefront.digest, newStorefront)).toString('base64'),
        });
        await eventually(async () => {
          const ladder = await get(`/products/${shop.ref}/ladder`);
          const cell = ladder.stages.find((s: { name: string }) => s.name === 'staging').services.storefront;
          return cell.digest === newStorefront && cell.healthy ? true : undefined;
        }, 60_000);
      }

      const requestOn = (replica: number, body: object) =>
        request(replicas[replica])
          .post(`/api/promotions/products/${shop.ref}/promotions`)
          .set('Authorization', asBob)
          .send(body);

      const promotions = async (): Promise<Promotion[]> => (await get(`/products/${shop.ref}/promotions`)).items;

      /** The open promotion PRs of the test's Product (other suites' Products have theirs on this simulator). */
      const openPromotionPulls = async () =>
        (await github.rest.pulls.list({ ...REPO, state: 'open', per_page: 100 })).data.filter(
          pr => parseMarker(pr.body ?? '').id && pr.head.ref.startsWith(shop.branchPrefix),
        );

      const promotionBranches = async () =>
        (await github.rest.git.listMatchingRefs({ ...REPO, ref: `heads/${shop.branchPrefix}` })).data.map(ref =>
          ref.ref.replace('refs/heads/', ''),
        );

      /** One live promotion with its PR recorded, and exactly its PR and branch on GitHub (of the test's Product). */
      async function settled() {
        const live = (await promotions()).filter(p => LIVE.includes(p.status)) as Array<Promotion & { branch: string }>;
        const pulls = await openPromotionPulls();
        const branches = await promotionBranches();
        const agreed =
          live.length === 1 &&
          live[0].pullRequest.number > 0 &&
          pulls.length === 1 &&
          pulls[0].number === live[0].pullRequest.number &&
          branches.length === 1 &&
          branches[0] === live[0].branch;
        return agreed ? { live: live[0], pulls, branches } : undefined;
      }

      it(`keeps one open PR for the stage, no orphans, no duplicate events and no 5xx over ${ROUNDS} rounds`, async () => {
        await stagingMovesOn();
        const bodies = [
          { toStage: 'prod', services: ['cart'] },
          { toStage: 'prod', services: ['storefront'] },
          { toStage: 'prod' },
        ];
        const answers: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          // Two identical pairs of different promotions, each pair split over both replicas.
          const batch = [bodies[round % 3], bodies[(round + 1) % 3], bodies[round % 3], bodies[(round + 1) % 3]];
          const responses = await Promise.all(batch.map((body, i) => requestOn(i % 2, body)));
          answers.push(...responses.map(r => r.status));
          expect(responses.filter(r => r.status >= 500).map(r => r.body)).toEqual([]);
          const state = await eventually(settled, 60_000);
          expect(state.pulls).toHaveLength(1);
        }
        // 201 opened, 200 the identical one, 409 replaced by a different one while opening.
        expect(answers.filter(status => ![200, 201, 409].includes(status))).toEqual([]);

        for (const promotion of await promotions()) {
          const { events } = (await get(`/promotions/${promotion.id}`)) as { events: PromotionEvent[] };
          const types = events.map(e => e.type);
          expect({ id: promotion.id, types }).toEqual({ id: promotion.id, types: [...new Set(types)] });
        }
      });
    });
  });
}
