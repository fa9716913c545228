import { mockCredentials } from '@backstage/backend-test-utils';
import { Octokit } from '@octokit/rest';
import type { RunningSim } from '@refplat/platform-sim';
import type { Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import request from 'supertest';
import { parse } from 'yaml';
import { eventually, readSimFile, startPromotionsBackend } from '../__testUtils__/testBackend';
import { sharedSimBackend, TestProduct } from '../__testUtils__/sharedSimBackend';

jest.setTimeout(120_000);

const REPO = { owner: 'refplat', repo: 'platform' };
const DEAD = `sha256:${'dead'.repeat(16)}`;
/** Long enough to push a commit while the Gate's merge call is held, even on a busy machine. */
const MERGE_HELD_MS = 5_000;

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

/**
 * The approval and the automatic merge are for what Backstage requested and
 * showed, never for whatever the PR branch holds when the Gate merges.
 */
describe('pushes to a promotion PR branch', () => {
  // One simulator and backend; each test promotes a Product of its own.
  const shared = sharedSimBackend();
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

  const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);
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
  const releaseDigest = (stage: string, service: string) =>
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
  const deadCheckout = (stage: string) => (text: string) => text.replace(releaseDigest(stage, 'checkout'), DEAD);

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
    const stagingCart = releaseDigest('staging', 'cart');
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
    expect(releaseDigest('prod', 'cart')).not.toBe(stagingCart);

    expect((await approve(promotion.id)).status).toBe(200);
    await eventually(async () => ((await promotionWithEvents(promotion.id)).promotion.status === 'merged' ? true : undefined));
    expect(releaseDigest('prod', 'cart')).toBe(stagingCart);
  });
});
