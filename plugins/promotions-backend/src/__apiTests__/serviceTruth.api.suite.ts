import { mockCredentials } from '@backstage/backend-test-utils';
import type { NotificationSendOptions } from '@backstage/plugin-notifications-node';
import type { RunningSim } from '@refplat/platform-sim';
import type { HealthVerdict, LadderStage } from '@refplat/plugin-promotions-common';
import type { JsonArray } from '@backstage/types';
import request from 'supertest';
import { getLadder } from '../__testUtils__/ladderViews';
import { recordingNotifications } from '../__testUtils__/recordingNotifications';
import { STUCK_SWEEP_EVERY_SECOND, sweepsPassed } from '../__testUtils__/stuckSweep';
import { eventually, startPromotionsBackend } from '../__testUtils__/testBackend';
import { backendPerTest, sharedSim, TestProduct } from '../__testUtils__/sharedSimBackend';

// Three condition waits on a canary of several steps, on a loaded 2-core machine (the runner's
// jest.setTimeout is 300 s).
const WAIT_MS = 120_000;

const bob = mockCredentials.user.header('user:default/bob');

/**
 * Issue 11, items 1 and 2: each Service of a stage tells its own truth. On the simulator's
 * default platform (app-repo Applications on Argo CD 3), one Service's failing canary or new
 * digest must not move its neighbours' verdicts, gates, diagnoses or soak.
 */
export function serviceTruthSuite(): void {
  describe('each Service tells its own truth', () => {
    // One simulator (diagnosis's); each test has a backend of its own (stopped after it) and a Product of its own.
    const shared = sharedSim({ canaryStepMs: 2000, syncDelayMs: 200, reconcileIntervalMs: 100 });
    const startBackend = backendPerTest();
    let sim: RunningSim;
    let server: Awaited<ReturnType<typeof startPromotionsBackend>>;
    let shop: TestProduct;
    let sent: NotificationSendOptions[];
    /** Every verdict of the watched neighbours seen by any ladder read of a test, with its reasons. */
    let neighbourViews: Map<HealthVerdict, string[]>;

    /** The test's Product and backend; `stages` as in `promotions.stages`. */
    async function start(stages?: JsonArray) {
      sim = shared.sim;
      shop = await shared.addProduct('alpha/shop');
      server = await startBackend(sim, 'argocd', {
        stages,
        services: [recordingNotifications(sent)],
        // Stalls are notified by the sweep (and health events and the Gate), never by a view.
        promotions: STUCK_SWEEP_EVERY_SECOND,
      });
    }

    beforeEach(() => {
      sent = [];
      neighbourViews = new Map();
    });

    async function dev(): Promise<LadderStage> {
      return (await getLadder(server, shop.ref)).stages.find(s => s.name === 'dev')!;
    }

    /** Waits until dev satisfies `holds`, noting the neighbours' verdicts on every read. */
    async function devWhen(holds: (stage: LadderStage) => boolean, neighbours: string[]) {
      let last: LadderStage | undefined;
      try {
        return await eventually(async () => {
          last = await dev();
          for (const service of neighbours) {
            const { verdict, reasons } = last.services[service];
            if (!neighbourViews.has(verdict)) neighbourViews.set(verdict, reasons.map(r => `${service}: ${r}`));
          }
          return holds(last) ? last : undefined;
        }, WAIT_MS);
      } catch (error) {
        // The last view says which part of the condition never held.
        throw new Error(`${error}; dev was last ${JSON.stringify(last?.services, null, 1)}`);
      }
    }

    const requestPromotion = (body: object) =>
      request(server)
        .post(`/api/promotions/products/${shop.ref}/promotions`)
        .set('Authorization', bob)
        .send(body);

    it("a failing canary in storefront leaves cart and checkout healthy, promotable and undiagnosed", async () => {
      await start();
      // cart gets a new, good digest in dev, so there is something of cart to promote to test.
      const cart = await sim.control.ciPush({ team: 'alpha', product: shop.product, service: 'cart' });
      await devWhen(
        stage => stage.services.cart.digest === cart.digest && stage.services.cart.healthy,
        ['checkout'],
      );

      const storefront = await sim.control.ciPush({
        team: 'alpha',
        product: shop.product,
        service: 'storefront',
        bad: true,
      });
      const failing = await devWhen(
        stage =>
          stage.services.storefront.digest === storefront.digest &&
          stage.services.storefront.diagnosis?.code === 'rollout-aborted' &&
          stage.services.cart.healthy &&
          stage.services.checkout.healthy,
        ['cart', 'checkout'],
      );

      expect(failing.services.storefront).toMatchObject({ verdict: 'unhealthy', healthy: false });
      expect(failing.services.storefront.diagnosis?.state).toBe('stuck');
      for (const service of ['cart', 'checkout']) {
        expect(failing.services[service]).toMatchObject({ verdict: 'healthy', healthy: true });
        expect(failing.services[service].diagnosis).toMatchObject({ state: 'ok', code: 'healthy' });
        expect(failing.services[service].diagnosis?.likelyCause).not.toMatch(/probes/);
      }
      // The stage is the aggregate of its Services, and only storefront's reasons are in it.
      expect(failing.verdict).toBe('unhealthy');
      expect(failing.reasons.every(reason => reason.startsWith('storefront: '))).toBe(true);
      // Neither storefront's push nor its failure ever moved cart or checkout, also in views whose
      // Application and resource tree (two reads on Argo CD 3) caught different moments.
      expect(Object.fromEntries(neighbourViews)).toEqual({ healthy: [] });

      // Gating follows the per-Service verdict.
      const cartUp = await requestPromotion({ toStage: 'test', services: ['cart'] });
      expect(cartUp.status).toBe(201);
      expect(cartUp.body.promotion.services).toEqual({ cart: cart.digest });
      const storefrontUp = await requestPromotion({ toStage: 'test', services: ['storefront'] });
      expect(storefrontUp.status).toBe(409);
      expect(storefrontUp.body.error.message).toMatch(/storefront is not healthy in dev/);

      // The owners hear only about storefront, over the sweeps that follow too.
      const ownStuck = () => sent.filter(n => n.payload.title.endsWith(`(${shop.ref})`) && / is stuck in /.test(n.payload.title));
      await eventually(async () => (ownStuck().length ? true : undefined), 60_000);
      await sweepsPassed(sim);
      const stuck = ownStuck();
      expect(stuck.map(n => n.payload.title)).toEqual([`storefront is stuck in dev (${shop.ref})`]);
    });

    it("a neighbour's new digest does not restart the soak of unchanged Services", async () => {
      // dev soaks, so the ladder shows since when each Service has been healthy there.
      await start([{ name: 'dev', soakTime: { minutes: 30 } }, 'test', 'uat', 'staging', 'prod']);
      const before = await devWhen(
        stage => ['storefront', 'cart', 'checkout'].every(s => stage.services[s].healthySince),
        [],
      );
      const since = (stage: LadderStage, service: string) => stage.services[service].healthySince;

      const cart = await sim.control.ciPush({ team: 'alpha', product: shop.product, service: 'cart' });
      const after = await devWhen(
        stage =>
          stage.services.cart.digest === cart.digest &&
          stage.services.cart.healthy &&
          since(stage, 'cart') !== undefined,
        ['storefront', 'checkout'],
      );

      expect(Object.fromEntries(neighbourViews)).toEqual({ healthy: [] });
      for (const service of ['storefront', 'checkout']) {
        expect(since(after, service)).toBe(since(before, service));
      }
      // Only the new digest starts again.
      expect(Date.parse(since(after, 'cart')!)).toBeGreaterThan(Date.parse(since(before, 'cart')!));
      expect(after.services.cart.soakRemainingSeconds).toBeGreaterThan(
        after.services.storefront.soakRemainingSeconds!,
      );
    });
  });
}
