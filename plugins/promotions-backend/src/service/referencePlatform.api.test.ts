import { mockCredentials } from '@backstage/backend-test-utils';
import type { Ladder, Promotion } from '@refplat/plugin-promotions-common';
import { isDeepStrictEqual } from 'util';
import { parse } from 'yaml';
import request from 'supertest';
import { sendConcurrently } from '../__testUtils__/concurrentRequests';
import { expectSettled, getLadder } from '../__testUtils__/ladderViews';
import {
  REFERENCE_PLATFORM_DIR,
  REFERENCE_REPO,
  ReferenceCall,
  ReferencePlatform,
  startReferencePlatform,
} from '../__testUtils__/referencePlatform/referencePlatform';
import { eventually, startPromotionsBackend, SWEEP_ONCE } from '../__testUtils__/testBackend';

/*
 * This file stays in src/service with its `.api.test.ts` name, apart from the other API suites
 * (src/__apiTests__): the protocol checker (../shared/tools/spec-check, `run.sh tests`) records
 * the traffic of src/service/*.api.test.ts.
 */

/**
 * The plugin against a GitHub and an ArgoCD that we did not write: the reference platform, built
 * to the seeds by another hand (images named `team-alpha/shop-storefront`, the repository
 * asanexample/platform, a hand-edited Release file). Its README is the harness's manual.
 */
jest.setTimeout(120_000);

const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const SETTLE_MS = 60_000;
const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);
const { owner, repo, branch } = REFERENCE_REPO;
const releaseFile = (stage: string) => `gitops/releases/alpha/shop/${stage}.yaml`;

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

/** Every upstream answer in the 4xx range. */
const clientErrors = (calls: ReferenceCall[]) => calls.filter(call => call.status >= 400 && call.status < 500);

const describeOnPlatform = REFERENCE_PLATFORM_DIR ? describe : describe.skip;
if (!REFERENCE_PLATFORM_DIR) {
  // eslint-disable-next-line no-console
  console.warn('Skipped: no ../shared/tools/reference-platform beside this checkout');
}

describeOnPlatform.each([2, 3] as const)('On the reference platform with ArgoCD %s', argocdVersion => {
  let platform: ReferencePlatform;
  let server: Server;

  /** The backend's first (cold) view, what it cost, and the Release records it was read from: before any test, which may promote. */
  const cold = {} as { ladder: Ladder; calls: ReferenceCall[]; released: Record<string, Record<string, string>> };

  beforeAll(async () => {
    platform = await startReferencePlatform({ argocdVersion, rolloutMs: 1500 });
    await platform.follow(true);
    server = await startPromotionsBackend(platform.addresses, 'argocd', {
      gate: SWEEP_ONCE,
      promotions: { platformRepo: { host: new URL(platform.addresses.url).host, owner, repo, branch } },
    });
    cold.ladder = await getLadder(server);
    cold.calls = await platform.calls('gh');
    cold.released = Object.fromEntries(await Promise.all(STAGES.map(async stage => [stage, await releasedDigests(stage)])));
  });

  afterAll(async () => {
    await platform?.stop();
  });

  const readFile = (path: string) =>
    platform.call<string>('gh', 'readFile', { owner, name: repo, ref: branch, path });
  const releasedDigests = async (stage: string): Promise<Record<string, string>> =>
    Object.fromEntries(
      Object.entries(parse(await readFile(releaseFile(stage))).spec.services as Record<string, { digest: string }>).map(
        ([service, entry]) => [service, entry.digest],
      ),
    );
  const requestPromotion = (body: object, user = 'bob') =>
    request(server).post('/api/promotions/products/alpha/shop/promotions').set('Authorization', asUser(user)).send(body);
  const promotionOf = async (id: string): Promise<Promotion> =>
    (await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'))).body.promotion;
  const untilMerged = (id: string) =>
    eventually(async () => {
      const promotion = await promotionOf(id);
      return promotion.status === 'merged' ? promotion : undefined;
    }, SETTLE_MS);
  /** The stage's cells once every Service in it is healthy (ArgoCD following a merge settles). */
  const healthyStage = (stage: string) =>
    eventually(async () => {
      const ladder: Ladder = await getLadder(server);
      const found = ladder.stages.find(s => s.name === stage)!;
      return found.healthy ? found : undefined;
    }, SETTLE_MS);

  it('shows the ladder: five stages, every digest from the Release records, checkout not in uat, all healthy', async () => {
    const { ladder } = cold;
    expect(ladder.healthError).toBeUndefined();
    expect(ladder.stages.map(stage => stage.name)).toEqual(STAGES);
    for (const stage of ladder.stages) {
      const digests = Object.fromEntries(
        Object.entries(stage.services).filter(([, cell]) => cell.digest).map(([service, cell]) => [service, cell.digest]),
      );
      expect({ stage: stage.name, digests }).toEqual({ stage: stage.name, digests: cold.released[stage.name] });
    }
    expectSettled(ladder);
    expect(ladder.stages.find(stage => stage.name === 'uat')!.services.checkout).toBeUndefined();
  });

  it('costed at most 5 charged GitHub requests for that cold view (head, tree, tarball), none sent twice', async () => {
    // Every request from the platform's start to the first view's end, but the Gate's first sweep (its two lists).
    const calls = cold.calls.filter(call => !/\/git\/matching-refs\/|\/pulls$/.test(call.path));
    expect(calls.filter(call => call.path.includes('/git/blobs/'))).toEqual([]);
    expect(calls.filter(call => !call.free && call.status !== 304).length).toBeLessThanOrEqual(5);
    expect(new Set(calls.map(call => call.path)).size).toBe(calls.length);
  });

  it('costs 1 GitHub request (304) and 1 ArgoCD request for a warm view of the unchanged Product, with no 4xx', async () => {
    await getLadder(server); // fills every cache a view uses
    const [github, argocd] = [(await platform.calls('gh')).length, (await platform.calls('argo')).length];
    const warm = await getLadder(server);
    expect(warm.stages.every(stage => stage.healthy)).toBe(true);
    const githubCalls = await platform.calls('gh', github);
    const argocdCalls = await platform.calls('argo', argocd);
    expect(githubCalls.map(call => `${call.status} ${call.method} ${call.path}`)).toEqual([
      `304 GET /repos/${owner}/${repo}/commits/heads/${branch}`,
    ]);
    expect(argocdCalls).toHaveLength(1);
    expect(clientErrors([...githubCalls, ...argocdCalls])).toEqual([]);
  });

  /** The PRs the plugin created on the reference GitHub, from request index `since` on. */
  const pullsCreated = async (since = 0) =>
    (await platform.calls('gh', since)).filter(call => call.method === 'POST' && call.path.endsWith('/pulls') && call.status === 201);

  it('refuses storefront out of a dev whose canary aborted with 409, naming storefront only, and writes nothing', async () => {
    await platform.call('argo', 'setDegraded', 'alpha-shop-dev', { service: 'storefront' });
    try {
      const dev = (await getLadder(server)).stages.find(stage => stage.name === 'dev')!;
      expect(Object.fromEntries(Object.entries(dev.services).map(([service, cell]) => [service, cell.verdict]))).toEqual({
        storefront: 'unhealthy',
        cart: 'healthy',
        checkout: 'healthy',
      });
      const since = (await platform.calls('gh')).length;
      const response = await requestPromotion({ toStage: 'test', services: ['storefront'] });
      expect({ status: response.status, message: response.body.error?.message }).toEqual({
        status: 409,
        message: expect.stringMatching(/storefront/),
      });
      expect(response.body.error.message).not.toMatch(/\bcart\b|\bcheckout\b/);
      const writes = (await platform.calls('gh', since)).filter(call => !['GET', 'HEAD'].includes(call.method));
      expect(writes).toEqual([]);
    } finally {
      await platform.call('argo', 'setHealthy', 'alpha-shop-dev', { digests: await releasedDigests('dev') });
    }
  });

  it('opens one PR for 4 concurrent identical requests (storefront uat → staging), and the Gate merges it', async () => {
    const since = (await platform.calls('gh')).length;
    const responses = await sendConcurrently(4, () => requestPromotion({ toStage: 'staging', services: ['storefront'] }));
    expect(responses.map(response => response.status).sort()).toEqual([200, 200, 200, 201]);
    const numbers = new Set(responses.map(response => response.body.promotion.pullRequest.number));
    expect(numbers.size).toBe(1);
    expect(await pullsCreated(since)).toHaveLength(1);
    await untilMerged(responses[0].body.promotion.id);
    const staging = await healthyStage('staging');
    expect(staging.services.storefront.digest).toBe((await releasedDigests('uat')).storefront);
  });

  it('bob promotes storefront dev → test: one PR changing only its digest line, merged by the Gate, then healthy in test', async () => {
    const before = await readFile(releaseFile('test'));
    const devDigest = (await releasedDigests('dev')).storefront;
    const oldDigest = (await releasedDigests('test')).storefront;
    const since = (await platform.calls('gh')).length;
    const response = await requestPromotion({ toStage: 'test', services: ['storefront'] });
    expect(response.status).toBe(201);
    expect(await pullsCreated(since)).toHaveLength(1);
    const promotion: Promotion = response.body.promotion;
    expect(promotion).toMatchObject({ fromStage: 'dev', toStage: 'test', services: { storefront: devDigest } });

    const files = await platform.call<Array<{ path: string }>>('gh', 'pullFiles', { owner, name: repo, number: promotion.pullRequest.number });
    expect(files.map(file => file.path)).toEqual([releaseFile('test')]);

    await untilMerged(promotion.id);
    // The hand-edited file, byte for byte: only storefront's digest line changed.
    expect(await readFile(releaseFile('test'))).toBe(before.replace(`digest: ${oldDigest}`, `digest: ${devDigest}`));
    const test = await healthyStage('test');
    expect(test.services.storefront).toMatchObject({ digest: devDigest, verdict: 'healthy', runningDigests: [devDigest] });
  });

  it('waits for a release-approver at prod; alice approves and it merges', async () => {
    await healthyStage('staging');
    const response = await requestPromotion({ toStage: 'prod', services: ['storefront'] });
    expect(response.status).toBe(201);
    const promotion: Promotion = response.body.promotion;
    expect(promotion.status).toBe('awaiting-approval');
    // The Gate has judged the PR (its source is healthy) and, without approval, merged nothing.
    await eventually(async () => {
      const { body } = await request(server).get(`/api/promotions/promotions/${promotion.id}`).set('Authorization', asUser('bob'));
      return body.events.some((event: { type: string }) => event.type === 'checks-passed') ? true : undefined;
    }, SETTLE_MS);
    expect((await promotionOf(promotion.id)).status).toBe('awaiting-approval');

    const byBob = await request(server).post(`/api/promotions/promotions/${promotion.id}/approve`).set('Authorization', asUser('bob'));
    expect(byBob.status).toBe(403);
    const byAlice = await request(server).post(`/api/promotions/promotions/${promotion.id}/approve`).set('Authorization', asUser('alice'));
    expect(byAlice.status).toBe(200);
    await untilMerged(promotion.id);
    expect((await releasedDigests('prod')).storefront).toBe(promotion.services.storefront);
    const prod = await healthyStage('prod');
    expect(prod.services.storefront.runningDigests).toEqual([promotion.services.storefront]);
  });
});

describeOnPlatform('In fleet mode on the reference platform (ArgoCD 3)', () => {
  let platform: ReferencePlatform;
  let server: Server;

  beforeAll(async () => {
    platform = await startReferencePlatform({ argocdVersion: 3, rolloutMs: 1500 });
    await platform.follow(true);
    // The seeds' dev is ahead of test in both Products; beta/payments opts in for this test.
    server = await startPromotionsBackend(platform.addresses, 'argocd', {
      gate: SWEEP_ONCE,
      autoPromote: { enabled: true, frequency: { seconds: 2 }, fleet: { enabled: true } },
      promotions: { platformRepo: { host: new URL(platform.addresses.url).host, owner, repo, branch } },
      systemAnnotations: { 'beta/payments': { 'refplat.org/auto-promote': 'true' } },
    });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  const digestsOf = async (product: string, stage: string): Promise<Record<string, string>> => {
    const text = await platform.call<string>('gh', 'readFile', { owner, name: repo, ref: branch, path: `gitops/releases/${product}/${stage}.yaml` });
    return Object.fromEntries(
      Object.entries(parse(text).spec.services as Record<string, { digest: string }>).map(([service, entry]) => [service, entry.digest]),
    );
  };
  const pullRequests = async (): Promise<Array<{ number: number; head: { ref: string }; merged_at: string | null; body: string }>> => {
    const response = await fetch(`${platform.addresses.githubApiUrl}/repos/${owner}/${repo}/pulls?state=all&per_page=100`, {
      headers: { authorization: `token ${platform.addresses.tokens.github}` },
    });
    return response.json();
  };

  it('climbs alpha/shop and beta/payments dev → test in one PR: one commit through the git data API, each Release file as its promotion asked, merged by the Gate', async () => {
    const products = ['alpha/shop', 'beta/payments'];
    const dev = Object.fromEntries(await Promise.all(products.map(async product => [product, await digestsOf(product, 'dev')] as const)));
    for (const product of products) expect(await digestsOf(product, 'test')).not.toEqual(dev[product]);

    await eventually(async () => {
      for (const product of products) if (!isDeepStrictEqual(await digestsOf(product, 'test'), dev[product])) return undefined;
      return true;
    }, SETTLE_MS);

    const intoTest = (await pullRequests()).filter(pr => pr.head.ref.startsWith('promotions/fleet/test-'));
    expect(intoTest).toHaveLength(1);
    expect(intoTest[0].merged_at).toBeTruthy();
    expect([...intoTest[0].body.matchAll(/promotions:key=([a-z]+\/[a-z]+)\/test /g)].map(match => match[1]).sort()).toEqual(products);
    const files = await platform.call<Array<{ path: string }>>('gh', 'pullFiles', { owner, name: repo, number: intoTest[0].number });
    expect(files.map(file => file.path).sort()).toEqual(products.map(product => `gitops/releases/${product}/test.yaml`));

    // The fleet's writes, as GitHub's API describes them: a tree, a commit, a ref, the PR; nothing refused.
    const writes = (await platform.calls('gh')).filter(call => !['GET', 'HEAD'].includes(call.method));
    expect(writes.filter(call => call.route === 'git.createTree').length).toBeGreaterThanOrEqual(1);
    expect(writes.filter(call => call.route === 'repos.createOrUpdateFileContents' && /\/test\.yaml/.test(call.path))).toEqual([]);
    expect(clientErrors(writes)).toEqual([]);

    for (const product of products) {
      const [team, name] = product.split('/');
      const { body } = await request(server).get(`/api/promotions/products/${team}/${name}/promotions`).set('Authorization', asUser('bob'));
      const intoTestRecord = (body.items as Promotion[]).find(promotion => promotion.toStage === 'test');
      expect(intoTestRecord).toMatchObject({ status: 'merged', pullRequest: { number: intoTest[0].number } });
    }
  });
});
