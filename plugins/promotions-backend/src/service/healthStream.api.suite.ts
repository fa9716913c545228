import { createServiceFactory } from '@backstage/backend-plugin-api';
import { mockCredentials } from '@backstage/backend-test-utils';
import { Octokit } from '@octokit/rest';
import request from 'supertest';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { eventually, HealthSourceKind, startPromotionsBackend } from '../__testUtils__/testBackend';
import { getLadder } from '../__testUtils__/ladderViews';

jest.setTimeout(180_000);

/** Long enough that a fresh ladder after a health change can only come from the stream's forget. */
const LONG_TTL = { minutes: 10 };
const VIEWERS = 5;

describe.each<[HealthSourceKind, 'argocd' | 'kubernetes']>([
  ['argocd', 'argocd'],
  ['kubernetes', 'kubernetes'],
])('health events from the %s source', (healthSource, target) => {
  let sim: RunningSim;
  let published: Array<{ channel: string; message: any }>;
  let server: Awaited<ReturnType<typeof startPromotionsBackend>>;

  const signalsOf = (product: string) =>
    published.filter(signal => signal.channel === `promotions:${product}`);
  const openStreams = () => sim.control.openStreams()[target];
  /** A list of Applications: what a ladder view (or a re-list) asks the source. */
  const applicationLists = () =>
    sim.control
      .getRequests(target)
      .filter(call => /\/applications$/.test(call.path) && !/watch=/.test(call.query));

  beforeAll(async () => {
    sim = await startPlatformSim();
    published = [];
    server = await startPromotionsBackend(sim, healthSource, {
      cacheTtl: LONG_TTL,
      healthStream: { enabled: true },
      services: [
        createServiceFactory({
          service: signalsServiceRef,
          deps: {},
          factory: () => ({
            publish: async (signal: any) => {
              published.push(signal);
            },
          }),
        }),
      ],
    });
  });
  afterAll(() => sim?.stop());

  it(`keeps one stream for ${VIEWERS} viewers`, async () => {
    await Promise.all(Array.from({ length: VIEWERS }, () => getLadder(server)));
    await eventually(async () => (openStreams() === 1 ? true : undefined));
    await Promise.all(Array.from({ length: VIEWERS }, () => getLadder(server)));
    expect(openStreams()).toBe(1);
  });

  it('signals the Product once for a burst of health and sync changes, without a ladder view', async () => {
    const test = (await getLadder(server)).stages.find(stage => stage.name === 'test')!;
    expect(test.verdict).toBe('healthy');
    sim.control.clearRequests();
    published.length = 0;

    sim.control.setApp('alpha-shop-test', { health: 'Degraded' });
    sim.control.setApp('alpha-shop-test', { sync: 'OutOfSync' });
    await eventually(async () => (signalsOf('alpha/shop').length > 0 ? true : undefined));
    // Another Product's signal comes after the first one's debounce window closed.
    sim.control.setApp('beta-payments-test', { health: 'Degraded' });
    await eventually(async () => (signalsOf('beta/payments').length > 0 ? true : undefined));

    expect(signalsOf('alpha/shop')).toEqual([
      { channel: 'promotions:alpha/shop', message: { product: 'alpha/shop', what: 'health' }, recipients: { type: 'broadcast' } },
    ]);
    expect(applicationLists()).toHaveLength(0);
    // The coalesced listing was dropped: the next view sees the change within the TTL.
    const after = (await getLadder(server)).stages.find(stage => stage.name === 'test')!;
    expect(after.verdict).not.toBe('healthy');
    expect(applicationLists()).toHaveLength(1);
  });

  it('reconnects after the server drops the stream, and signals again', async () => {
    sim.control.clearRequests();
    published.length = 0;
    expect(sim.control.dropStreams()).toBe(1);
    await eventually(async () => (openStreams() === 1 ? true : undefined));

    sim.control.setApp('alpha-shop-test', { clear: true });
    await eventually(async () => (signalsOf('alpha/shop').length > 0 ? true : undefined));
    expect(openStreams()).toBe(1);
  });
});

describe('a promotion waiting on the stage below', () => {
  let sim: RunningSim;
  let server: Awaited<ReturnType<typeof startPromotionsBackend>>;
  let github: Octokit;
  const repo = { owner: 'refplat', repo: 'platform' };

  beforeAll(async () => {
    sim = await startPlatformSim();
    // The Gate's own run is hourly here: only the health event can move the promotion on.
    server = await startPromotionsBackend(sim, 'argocd', {
      healthStream: { enabled: true },
      gate: { frequency: { hours: 1 } },
    });
    github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
    await eventually(async () => (sim.control.openStreams().argocd === 1 ? true : undefined));
  });
  afterAll(() => sim?.stop());

  const healthStatuses = async (sha: string) =>
    (await github.rest.repos.listCommitStatusesForRef({ ...repo, ref: sha })).data
      .filter(status => status.context === 'promotions/health')
      .map(status => status.state);

  it('is merged by the Gate on the health event that makes the source healthy again', async () => {
    // The check right after the request cannot publish its verdict, so the promotion waits.
    sim.control.addFault({ target: 'github', method: 'POST', path: '/statuses/', status: 502 });
    const response = await request(server)
      .post('/api/promotions/products/alpha/shop/promotions')
      .set('Authorization', mockCredentials.user.header('user:default/bob'))
      .send({ toStage: 'test', services: ['storefront'] });
    expect(response.status).toBe(201);
    const { number } = response.body.promotion.pullRequest;
    const { data: pr } = await github.rest.pulls.get({ ...repo, pull_number: number });
    await eventually(async () => (sim.control.getState().faults?.length === 0 ? true : undefined));

    sim.control.setApp('alpha-shop-dev', { health: 'Degraded' });
    await eventually(async () => ((await healthStatuses(pr.head.sha)).includes('failure') ? true : undefined), 60_000);
    expect((await github.rest.pulls.get({ ...repo, pull_number: number })).data.merged).toBe(false);

    sim.control.setApp('alpha-shop-dev', { clear: true });
    await eventually(
      async () => ((await github.rest.pulls.get({ ...repo, pull_number: number })).data.merged ? true : undefined),
      60_000,
    );
    expect(await healthStatuses(pr.head.sha)).toContain('success');
  });
});
