import { AddressInfo } from 'net';
import path from 'path';
import type { BackendFeature } from '@backstage/backend-plugin-api';
import { mockCredentials } from '@backstage/backend-test-utils';
import eventsPlugin from '@backstage/plugin-events-backend';
import { eventsServiceFactory } from '@backstage/plugin-events-node';
import { Octokit } from '@octokit/rest';
import { RunningSim, signWebhookBody } from '@refplat/platform-sim';
import type { Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import request from 'supertest';
import { eventually, startPromotionsBackend } from '../__testUtils__/testBackend';
import { sharedSimBackend, TestProduct } from '../__testUtils__/sharedSimBackend';

const REPO = { owner: 'refplat', repo: 'platform' };
const SECRET = 'webhook-secret-for-tests';

/**
 * The GitHub module's two parts (the signature-checking ingress and the
 * `github` → `github.<event>` router). Its default export loads them with a
 * dynamic import, which Jest cannot run without --experimental-vm-modules.
 */
function githubEventsModules(): BackendFeature[] {
  const dist = path.dirname(require.resolve('@backstage/plugin-events-backend-module-github'));
  return ['eventsModuleGithubWebhook', 'eventsModuleGithubEventRouter'].map(
    name => require(path.join(dist, 'service', `${name}.cjs.js`)).default,
  );
}

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

/** GitHub webhooks (was webhooks.api.test.ts), on the file's simulator. */
export function webhooksSuite() {
  /**
   * GitHub → the events backend's GitHub module (signature check) → the promotions
   * backend, with the simulator delivering real signed webhooks. The Gate does not
   * poll here, so once the check a request triggers is done, only a webhook can
   * move a promotion.
   */
  describe('GitHub webhooks', () => {
    // The file's simulator and one backend; each test promotes a Product of its own and reads only the deliveries it caused.
    const shared = sharedSimBackend({
      backend: {
        // No scheduled Gate run at all (not even the first one at start-up): only the
        // check a request triggers, and webhooks.
        gate: { enabled: false },
        // One process: the in-process bus. The database-backed bus's long polls would
        // hold each test backend's shutdown for most of a minute.
        rootConfig: { events: { modules: { github: { webhookSecret: SECRET } }, useEventBus: 'never' } },
        // The real events service: what the HTTP ingress publishes reaches the plugin.
        services: [eventsServiceFactory],
        features: [eventsPlugin, ...githubEventsModules()],
      },
    });
    let sim: RunningSim;
    let server: Server;
    let hookUrl: string;
    let alice: Octokit;
    let shop: TestProduct;
    /** The deliveries made before the test. */
    let earlier: Set<string>;

    beforeAll(() => {
      ({ sim, server } = shared);
      hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events/http/github`;
      alice = new Octokit({ baseUrl: sim.githubApiUrl, auth: 'sim-alice-token' });
    });

    beforeEach(async () => {
      shop = await shared.addProduct('alpha/shop');
      await sim.webhooks.idle();
      earlier = new Set(sim.webhooks.deliveries().map(delivery => delivery.id));
    });

    afterEach(() => {
      sim.webhooks.configure(undefined);
    });

    /** The deliveries of this test, oldest first. */
    const deliveries = () => sim.webhooks.deliveries().filter(delivery => !earlier.has(delivery.id));

    const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);
    const promotionWithEvents = async (id: string) =>
      (await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'))).body as {
        promotion: Promotion;
        events: PromotionEvent[];
      };
    const requestProdPromotion = async (): Promise<Promotion> => {
      const response = await request(server)
        .post(`/api/promotions/products/${shop.ref}/promotions`)
        .set('Authorization', asUser('bob'))
        .send({ toStage: 'prod', services: ['cart'] });
      expect(response.status).toBe(201);
      const promotion: Promotion = response.body.promotion;
      expect(promotion.status).toBe('awaiting-approval');
      // The check the request triggers has judged the PR; nothing looks at it again unprompted.
      await eventually(async () => {
        const { events } = await promotionWithEvents(promotion.id);
        return events.some(e => e.type === 'checks-passed') ? true : undefined;
      });
      return promotion;
    };
    const mergedByHand = (id: string) =>
      eventually(async () => {
        const { promotion, events } = await promotionWithEvents(id);
        return promotion.status === 'merged' ? { promotion, events } : undefined;
      });

    it('a PR merged by hand on GitHub ends its promotion at once, not at the next poll', async () => {
      sim.webhooks.configure({ url: hookUrl, secret: SECRET });
      const promotion = await requestProdPromotion();

      const mergedAt = Date.now();
      await alice.rest.pulls.merge({ ...REPO, pull_number: promotion.pullRequest.number });
      const { promotion: merged, events } = await mergedByHand(promotion.id);
      const latencyMs = Date.now() - mergedAt;

      expect(merged.statusReason).toBe('Merged on GitHub by alice');
      expect(events.find(e => e.type === 'merged')).toMatchObject({ actor: 'alice' });
      await sim.webhooks.idle();
      const delivered = deliveries();
      expect(delivered.map(d => d.event)).toEqual(expect.arrayContaining(['push', 'pull_request']));
      // The events backend accepts every signed delivery.
      expect(delivered.every(d => d.status >= 200 && d.status < 300)).toBe(true);
      // Reported, not asserted: times depend on the machine.
      console.info(`webhook: merge on GitHub → promotion merged in ${latencyMs} ms`);
    });

    it('rejects deliveries with a bad signature, which change nothing; a signed status then moves the promotion', async () => {
      sim.webhooks.configure({ url: hookUrl, secret: 'not-the-secret' });
      const promotion = await requestProdPromotion();
      await alice.rest.pulls.merge({ ...REPO, pull_number: promotion.pullRequest.number });
      await sim.webhooks.idle();

      const rejected = deliveries();
      expect(rejected.map(d => d.event)).toEqual(expect.arrayContaining(['push', 'pull_request']));
      expect(rejected.every(d => d.status === 403)).toBe(true);
      // Rejected before publishing: nothing reached the plugin.
      expect((await promotionWithEvents(promotion.id)).promotion.status).toBe('awaiting-approval');

      // A forged delivery sent by hand is rejected the same way, and so is an unsigned one.
      const body = JSON.stringify({ action: 'closed', number: promotion.pullRequest.number, repository: { full_name: 'refplat/platform' } });
      const forged = await fetch(hookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-github-delivery': 'forged',
          'x-hub-signature-256': signWebhookBody('guessed', body),
        },
        body,
      });
      expect(forged.status).toBe(403);
      const unsigned = await fetch(hookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request' },
        body,
      });
      expect(unsigned.status).toBe(403);
      expect((await promotionWithEvents(promotion.id)).promotion.status).toBe('awaiting-approval');

      // With the right secret, a CI status on the PR's head is enough for the Gate to look.
      sim.webhooks.configure({ url: hookUrl, secret: SECRET });
      const { data: pr } = await alice.rest.pulls.get({ ...REPO, pull_number: promotion.pullRequest.number });
      await alice.rest.repos.createCommitStatus({ ...REPO, sha: pr.head.sha, state: 'success', context: 'ci/build' });
      const { promotion: merged } = await mergedByHand(promotion.id);
      expect(merged.statusReason).toBe('Merged on GitHub by alice');
      await sim.webhooks.idle();
      expect(deliveries().at(-1)).toMatchObject({ event: 'status', status: 202 });
    });
  });
}
