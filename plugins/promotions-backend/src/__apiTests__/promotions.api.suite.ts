import { mockCredentials } from '@backstage/backend-test-utils';
import type { RunningSim } from '@refplat/platform-sim';
import { Octokit } from '@octokit/rest';
import { parse } from 'yaml';
import request from 'supertest';
import type { Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import { eventually, readSimFile, startPromotionsBackend } from '../__testUtils__/testBackend';
import { backendPerTest, sharedSim, sharedSimBackend, TestProduct } from '../__testUtils__/sharedSimBackend';
import { sendConcurrently } from '../__testUtils__/concurrentRequests';

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function releaseDigest(sim: RunningSim, stage: string, service: string, product: TestProduct): string {
  return parse(readSimFile(sim, product.releasePath(stage))).spec.services[service]?.digest;
}

const REPO = { owner: 'refplat', repo: 'platform' };
const DEAD = `sha256:${'dead'.repeat(16)}`;
/** Long enough to push a commit while the Gate's merge call is held, even on a busy machine. */
const MERGE_HELD_MS = 5_000;

/**
 * Promotion requests, the Gate and what GitHub shows (was promotions.api.test.ts),
 * on the file's simulator: each test that changes the platform promotes a
 * Product of its own, laid out as alpha/shop.
 */
export function promotionsSuite() {
  describe('promotions', () => {
    /**
     * A test that needs a backend configured its own way: it starts it on the
     * file's simulator, for a Product of its own, and stops it after; the
     * faults it injects are scoped to that Product's paths.
     */
    describe('promotions under their own configuration', () => {
      const shared = sharedSim();
      const startBackend = backendPerTest();

      it('deletes a branch a failed opening left behind once idle for the grace period, when GitHub failed the commit and the delete', async () => {
        const { sim } = shared;
        const shop = await shared.addProduct('alpha/shop');
        const server = await startBackend(sim, 'argocd', {
          gate: { orphanGracePeriod: { seconds: 3 } },
        });
        const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        /** The promotion branches of the test's Product (other suites' Products have theirs on this simulator). */
        const promotionBranches = async () =>
          (await github.rest.git.listMatchingRefs({ owner: 'refplat', repo: 'platform', ref: `heads/${shop.branchPrefix}` })).data.map(
            ref => ref.ref,
          );
        // Only this Product's: another suite's idle branches on the simulator are deleted as usual.
        sim.control.addFault({ target: 'github', method: 'PUT', path: `/contents/${shop.releasePath('prod')}`, count: 50, status: 503 });
        sim.control.addFault({ target: 'github', method: 'DELETE', path: `/git/refs/heads/${shop.branchPrefix}`, count: 50, status: 503 });
        const response = await request(server)
          .post(`/api/promotions/products/${shop.ref}/promotions`)
          .set('Authorization', asUser('bob'))
          .send({ toStage: 'prod' });
        expect({ status: response.status, message: response.body.error?.message }).toEqual({
          status: 503,
          message: expect.stringMatching(new RegExp(`^GitHub failed while committing ${escapeRegExp(shop.releasePath('prod'))} .*\\(HTTP 503\\)`)),
        });
        const [left] = await promotionBranches();
        expect(left).toMatch(new RegExp(`^refs/heads/${escapeRegExp(shop.branchPrefix)}prod-`));

        sim.control.clearFaults();
        const deleted = await eventually(async () => ((await promotionBranches()).length === 0 ? true : undefined), 30_000);
        expect(deleted).toBe(true);
      });
    });

    /** One backend for the tests of this block, stopped when it ends. */
    describe('on one backend', () => {
      const shared = sharedSimBackend();
      describe('promotions against the simulator', () => {
        let sim: RunningSim;
        let server: Server;
        let github: Octokit;
        /** The Product the test promotes. */
        let shop: TestProduct;

        beforeAll(() => {
          ({ sim, server } = shared);
          github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        });

        const requestPromotion = (body: object, user = 'bob') =>
          request(server)
            .post(`/api/promotions/products/${shop.ref}/promotions`)
            .set('Authorization', asUser(user))
            .send(body);

        const promotionStatus = async (id: string) =>
          (
            await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'))
          ).body.promotion as Promotion;

        /** The open PRs of the test's Product. */
        const openPulls = async () =>
          (await github.rest.pulls.list({ owner: 'refplat', repo: 'platform', state: 'open', per_page: 100 })).data.filter(
            pull => pull.head.ref.startsWith(shop.branchPrefix),
          );

        const promotionBranches = async () =>
          (await github.rest.git.listMatchingRefs({ owner: 'refplat', repo: 'platform', ref: `heads/${shop.branchPrefix}` }))
            .data;

        describe("on a Product of the test's own", () => {
          beforeEach(async () => {
            shop = await shared.addProduct('alpha/shop');
          });

          it('opens one PR editing only the storefront line, and the Gate merges it once dev is healthy', async () => {
            const devDigest = releaseDigest(sim, 'dev', 'storefront', shop);
            const oldTestDigest = releaseDigest(sim, 'test', 'storefront', shop);
            const response = await requestPromotion({ toStage: 'test', services: ['storefront'] });
            expect(response.status).toBe(201);
            const promotion: Promotion = response.body.promotion;
            expect(promotion).toMatchObject({
              team: 'alpha',
              product: shop.product,
              fromStage: 'dev',
              toStage: 'test',
              services: { storefront: devDigest },
              requestedBy: 'user:default/bob',
            });
            expect(promotion.pullRequest.number).toBeGreaterThan(0);

            const { data: files } = await github.rest.pulls.listFiles({
              owner: 'refplat',
              repo: 'platform',
              pull_number: promotion.pullRequest.number,
            });
            expect(files.map(file => file.filename)).toEqual([shop.releasePath('test')]);
            const changed = files[0].patch!.split('\n').filter(line => /^[-+][^-+]/.test(line));
            expect(changed).toEqual([
              expect.stringMatching(new RegExp(`^-\\s+digest: ${oldTestDigest}`)),
              expect.stringMatching(new RegExp(`^\\+\\s+digest: ${devDigest}`)),
            ]);
            const { data: pr } = await github.rest.pulls.get({
              owner: 'refplat',
              repo: 'platform',
              pull_number: promotion.pullRequest.number,
            });
            expect(pr.title).toContain('storefront dev → test');
            // The requester by name, with the plain name the body is read back by; no entity ref.
            expect(pr.body).toContain('Requested by Bob Builder (`bob`)');
            expect(pr.body).not.toMatch(/(user|group):default\//);
            expect(pr.labels.map(label => label.name)).toEqual(
              expect.arrayContaining(['promotion', 'stage:test']),
            );

            const merged = await eventually(async () => {
              const current = await promotionStatus(promotion.id);
              return current.status === 'merged' ? current : undefined;
            }, 30_000);
            expect(merged.status).toBe('merged');
            expect(releaseDigest(sim, 'test', 'storefront', shop)).toBe(devDigest);
            // Why it merged rides on the merge commit, not on a status write of its own.
            const platform = { owner: 'refplat', repo: 'platform' };
            const mergedPr = (await github.rest.pulls.get({ ...platform, pull_number: promotion.pullRequest.number })).data;
            const mergeCommit = (await github.rest.git.getCommit({ ...platform, commit_sha: mergedPr.merge_commit_sha! })).data;
            expect(mergeCommit.message).toContain('Merged by the promotions Gate: dev is Synced, Healthy and running these digests.');
            const statuses = (await github.rest.repos.listCommitStatusesForRef({ ...platform, ref: pr.head.sha })).data;
            // Any health status the head shows (dev may have been settling when asked) ends green.
            expect(statuses.find(status => status.context === 'promotions/health')?.state ?? 'success').toBe('success');
            // The Gate records the merge first, then deletes the branch.
            await eventually(async () => ((await promotionBranches()).length === 0 ? true : undefined));

            const history = await request(server)
              .get(`/api/promotions/products/${shop.ref}/stages/test/history`)
              .set('Authorization', asUser('bob'));
            expect(history.status).toBe(200);
            expect(history.body.items[0].services.storefront).toBe(devDigest);
            expect(history.body.items[0].pullRequest.number).toBe(promotion.pullRequest.number);
            expect(history.body.items.length).toBeGreaterThan(1);
            // Each entry says what its commit changed: the merge replaced test's storefront alone.
            expect(history.body.items[0].changes).toEqual([
              { service: 'storefront', from: oldTestDigest, to: devDigest },
            ]);
            // The seeded record's first commit is in the history: it added every Service it named.
            const first = history.body.items.at(-1);
            expect(first.changes).toEqual(
              Object.entries(first.services).map(([service, to]) => ({ service, to })),
            );
          });

          it('reverts the oldest history entry shown: the digest it replaced was read with it, an older one is refused', async () => {
            const seeded = releaseDigest(sim, 'dev', 'storefront', shop);
            const pushed: string[] = [];
            for (let i = 0; i < 21; i++) {
              pushed.push((await sim.control.ciPush({ team: 'alpha', product: shop.product, service: 'storefront' })).digest);
            }
            const history = await request(server)
              .get(`/api/promotions/products/${shop.ref}/stages/dev/history`)
              .set('Authorization', asUser('bob'));
            expect(history.body.items).toHaveLength(20);
            // The oldest entry shown is the second push; the first, read beside it, is what it replaced.
            expect(history.body.items[19].changes).toEqual([{ service: 'storefront', from: pushed[0], to: pushed[1] }]);

            const rollback = (digest: string) =>
              request(server)
                .post(`/api/promotions/products/${shop.ref}/rollbacks`)
                .set('Authorization', asUser('bob'))
                .send({ stage: 'dev', services: { storefront: digest } });
            const tooOld = await rollback(seeded);
            expect(tooOld.status).toBe(409);
            expect(tooOld.body.error.message).toMatch(/not in the recent history/);
            expect((await rollback(pushed[0])).status).toBe(201);
          });

          it('opens exactly one PR for 20 concurrent identical requests', async () => {
            const answers = await sendConcurrently(20, () => requestPromotion({ toStage: 'prod' }));
            expect(answers.map(r => r.status).sort()).toEqual([...Array(19).fill(200), 201]);
            expect(new Set(answers.map(r => r.body.promotion.pullRequest.number)).size).toBe(1);
            expect(await openPulls()).toHaveLength(1);
          });

          it('survives one GitHub 5xx and one secondary rate limit per call', async () => {
            sim.control.addFault({ target: 'github', method: 'POST', path: '/pulls', count: 1, status: 502 });
            sim.control.addFault({ target: 'github', method: 'PUT', path: '/contents/', count: 1, kind: 'secondary-rate-limit' });
            const response = await requestPromotion({ toStage: 'prod' });
            expect(response.status).toBe(201);
            expect(await openPulls()).toHaveLength(1);
          });

          it('fails clearly and leaves no branch behind when GitHub keeps failing', async () => {
            sim.control.addFault({ target: 'github', method: 'POST', path: '/pulls', count: 50, status: 503 });
            const response = await requestPromotion({ toStage: 'prod' });
            expect(response.status).toBe(503);
            expect(response.body.error.message).toMatch(/GitHub failed while opening a pull request/);
            sim.control.clearFaults();
            expect(await openPulls()).toEqual([]);
            expect(await promotionBranches()).toEqual([]);
            const list = await request(server)
              .get(`/api/promotions/products/${shop.ref}/promotions`)
              .set('Authorization', asUser('bob'));
            expect(list.body.items[0].status).toBe('failed');

            const retry = await requestPromotion({ toStage: 'prod' });
            expect(retry.status).toBe(201);
          });
        });

      });

      /**
       * The approval and the automatic merge are for what Backstage requested and
       * showed, never for whatever the PR branch holds when the Gate merges.
       */
      describe('pushes to a promotion PR branch', () => {
        // Each test promotes a Product of its own.
        let sim: RunningSim;
        let server: Server;
        let github: Octokit;
        let shop: TestProduct;

        beforeAll(() => {
          ({ sim, server } = shared);
          github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
        });

        beforeEach(async () => {
          shop = await shared.addProduct('alpha/shop');
        });

        const requestPromotion = (toStage: string) =>
          request(server)
            .post(`/api/promotions/products/${shop.ref}/promotions`)
            .set('Authorization', asUser('bob'))
            .send({ toStage, services: toStage === 'prod' ? ['cart'] : ['storefront'] });
        const approve = (id: string) =>
          request(server).post(`/api/promotions/promotions/${id}/approve`).set('Authorization', asUser('alice'));
        const promotionWithEvents = async (id: string) =>
          (await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'))).body as {
            promotion: Promotion;
            events: PromotionEvent[];
          };
        const digestIn = (stage: string, service: string) =>
          parse(readSimFile(sim, shop.releasePath(stage))).spec.services[service]?.digest;
        const pullRequest = async (number: number) => (await github.rest.pulls.get({ ...REPO, pull_number: number })).data;
        /** The Gate ends the promotion first, then closes its PR. */
        const closedOnGitHub = (number: number) =>
          eventually(async () => {
            const pr = await pullRequest(number);
            return pr.state === 'closed' ? pr : undefined;
          });

        /** What bob did with his own token: edit the stage's Release on the PR branch. */
        async function pushToBranch(prNumber: number, stage: string, edit: (text: string) => string) {
          const branch = (await pullRequest(prNumber)).head.ref;
          const path = shop.releasePath(stage);
          const { data } = await github.rest.repos.getContent({ ...REPO, path, ref: branch });
          const { content, sha } = data as { content: string; sha: string };
          await github.rest.repos.createOrUpdateFileContents({
            ...REPO,
            path,
            branch,
            sha,
            message: `bump checkout in ${stage}`,
            content: Buffer.from(edit(Buffer.from(content, 'base64').toString('utf8'))).toString('base64'),
          });
        }

        /** The stage's checkout digest swapped for one nobody requested. */
        const deadCheckout = (stage: string) => (text: string) => text.replace(digestIn(stage, 'checkout'), DEAD);

        /** A new head with the same content (e.g. GitHub's "Update branch" with nothing to bring in). */
        async function pushSameContent(prNumber: number) {
          const pr = await pullRequest(prNumber);
          const { data: head } = await github.rest.git.getCommit({ ...REPO, commit_sha: pr.head.sha });
          const { data: commit } = await github.rest.git.createCommit({
            ...REPO,
            message: 'same content, new head',
            tree: head.tree.sha,
            parents: [pr.head.sha],
          });
          await github.rest.git.updateRef({ ...REPO, ref: `heads/${pr.head.ref}`, sha: commit.sha });
        }

        /** Holds the Gate's next merge call, and resolves once the Gate has made it. */
        async function holdNextMerge() {
          sim.control.addFault({ target: 'github', method: 'PUT', path: '/merge', latencyMs: MERGE_HELD_MS });
          return () => eventually(async () => sim.control.getState().faults.length === 0 || undefined, 60_000);
        }

        it('closes a prod promotion whose branch carries a digest nobody requested, and nobody can approve it', async () => {
          const prodBefore = readSimFile(sim, shop.releasePath('prod'));
          const response = await requestPromotion('prod');
          expect(response.status).toBe(201);
          const promotion: Promotion = response.body.promotion;

          await pushToBranch(promotion.pullRequest.number, 'prod', deadCheckout('prod'));

          const closed = await eventually(async () => {
            const current = await promotionWithEvents(promotion.id);
            return current.promotion.status === 'closed' ? current : undefined;
          });
          expect(closed.promotion.statusReason).toMatch(
            /is not the requested change: checkout changes to sha256:deaddeaddead, which nobody requested/,
          );
          expect(closed.events.filter(e => e.type === 'closed')).toEqual([
            expect.objectContaining({ actor: 'promotions-gate', detail: closed.promotion.statusReason }),
          ]);
          expect((await approve(promotion.id)).status).toBe(409);
          expect(await closedOnGitHub(promotion.pullRequest.number)).toMatchObject({ merged: false });
          expect(readSimFile(sim, shop.releasePath('prod'))).toBe(prodBefore);
        });

        it('never auto-merges below prod a branch pushed to while the Gate was merging it', async () => {
          const testBefore = readSimFile(sim, shop.releasePath('test'));
          const mergeMade = await holdNextMerge();
          const response = await requestPromotion('test');
          expect(response.status).toBe(201);
          const promotion: Promotion = response.body.promotion;

          // The Gate verified the head and asked GitHub to merge exactly it; the push lands meanwhile.
          await mergeMade();
          await pushToBranch(promotion.pullRequest.number, 'test', deadCheckout('test'));

          const closed = await eventually(async () => {
            const current = await promotionWithEvents(promotion.id);
            return current.promotion.status === 'closed' ? current : undefined;
          });
          expect(closed.promotion.statusReason).toMatch(/checkout changes to sha256:deaddeaddead, which nobody requested/);
          expect(closed.events.map(e => e.type)).not.toContain('merged');
          expect(await closedOnGitHub(promotion.pullRequest.number)).toMatchObject({ merged: false });
          expect(readSimFile(sim, shop.releasePath('test'))).toBe(testBefore);
        });

        it('voids an approval when the head moves, even to the same content, and merges only after a new approval', async () => {
          const stagingCart = digestIn('staging', 'cart');
          const response = await requestPromotion('prod');
          const promotion: Promotion = response.body.promotion;
          const approvedHead = (await pullRequest(promotion.pullRequest.number)).head.sha;

          const mergeMade = await holdNextMerge();
          expect((await approve(promotion.id)).body.promotion).toMatchObject({ status: 'approved', approvedSha: approvedHead });
          await mergeMade();
          await pushSameContent(promotion.pullRequest.number);

          const voided = await eventually(async () => {
            const current = await promotionWithEvents(promotion.id);
            return current.events.some(e => e.type === 'approval-voided') ? current : undefined;
          });
          expect(voided.promotion.status).toBe('awaiting-approval');
          expect(voided.promotion.approvedBy).toBeUndefined();
          expect(voided.promotion.statusReason).toMatch(
            new RegExp(`head moved to \\w{7} after Alice Approver approved ${approvedHead.slice(0, 7)}`),
          );
          // The PR says why, right after the promotion records it.
          await eventually(async () => {
            const { data: comments } = await github.rest.issues.listComments({ ...REPO, issue_number: promotion.pullRequest.number });
            return comments.some(c => c.body?.startsWith('Approval voided. The pull request\'s head moved')) || undefined;
          });
          expect(digestIn('prod', 'cart')).not.toBe(stagingCart);

          expect((await approve(promotion.id)).status).toBe(200);
          await eventually(async () => ((await promotionWithEvents(promotion.id)).promotion.status === 'merged' ? true : undefined));
          expect(digestIn('prod', 'cart')).toBe(stagingCart);
        });
      });
    });
  });
}
