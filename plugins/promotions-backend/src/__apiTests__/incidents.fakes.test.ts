import { mockCredentials } from '@backstage/backend-test-utils';
import { createBackendModule } from '@backstage/backend-plugin-api';
import { EventsService, eventsServiceRef } from '@backstage/plugin-events-node';
import request from 'supertest';
import type { ApprovalItem, IncidentReport, Ladder, Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import { FakesBackend, fakesBackendForBlock } from '../__testUtils__/fakesBackend';
import { eventually } from '../__testUtils__/testBackend';
import { Recorded, recordingAuditor } from '../__testUtils__/recordingAuditor';

type Product = ReturnType<FakesBackend['addProduct']>;

const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);
const INCIDENT_CONTEXT = 'promotions/guard/incident';

/** An incident tool inside the backend, publishing on the events service as a real one would. */
function incidentTool() {
  let events: EventsService | undefined;
  const module = createBackendModule({
    pluginId: 'promotions',
    moduleId: 'incident-tool',
    register(env) {
      env.registerInit({
        deps: { events: eventsServiceRef },
        async init(deps) {
          events = deps.events;
        },
      });
    },
  });
  const publish = (report: IncidentReport) =>
    events!.publish({ topic: 'promotions.incidents', eventPayload: report });
  return { module, publish };
}

/**
 * A backend on fakes of its own for the enclosing describe block, with the incident gate
 * configured and an incident tool inside it; stopped when the block ends.
 */
function startWithIncidents(incidents: object, audit: Recorded[] = []) {
  const tool = incidentTool();
  const handle = fakesBackendForBlock({
    // The in-process events service: what the tool publishes reaches the plugin's subscriber.
    rootConfig: { events: { useEventBus: 'never' } },
    promotions: { incidents },
    services: [recordingAuditor(audit)],
    features: [tool.module],
  });
  return { handle, publish: tool.publish };
}

/** The routes a test calls, for `shop`, a Product of the test's own. */
function client(world: FakesBackend, shop: Product) {
  const { server, repo } = world;
  const detail = async (id: string) => {
    const response = await request(server).get(`/api/promotions/promotions/${id}`).set('Authorization', asUser('bob'));
    return response.body as { promotion: Promotion; events: PromotionEvent[] };
  };
  return {
    requestInto: (toStage: string, services?: string[]) =>
      request(server)
        .post(`/api/promotions/products/${shop.ref}/promotions`)
        .set('Authorization', asUser('bob'))
        .send({ toStage, services }),
    approve: (id: string, user: string) =>
      request(server).post(`/api/promotions/promotions/${id}/approve`).set('Authorization', asUser(user)),
    /** What `user`'s approvals inbox lists of the Product's: id → what each promotion awaits. */
    inbox: async (user: string) => {
      const response = await request(server).get('/api/promotions/approvals').set('Authorization', asUser(user));
      expect(response.status).toBe(200);
      return Object.fromEntries(
        (response.body.items as ApprovalItem[])
          .filter(item => `${item.team}/${item.product}` === shop.ref)
          .map(item => [item.id, item.awaiting]),
      );
    },
    ladder: async (): Promise<Ladder> =>
      (await request(server).get(`/api/promotions/products/${shop.ref}/ladder`).set('Authorization', asUser('bob'))).body,
    detail,
    merged: (id: string) =>
      eventually(async () => {
        const { promotion } = await detail(id);
        return promotion.status === 'merged' ? promotion : undefined;
      }, 30_000),
    /** The newest status of the incident guard on the PR head, once `accept` takes it. */
    headStatus: (pullNumber: number, accept: (state: string) => boolean) =>
      eventually(async () => {
        const head = repo.pullRequests().find(pr => pr.number === pullNumber)!.headSha;
        const status = repo.latestStatusesOf(head)[INCIDENT_CONTEXT];
        return status && accept(status.state) ? status : undefined;
      }, 30_000),
  };
}

/** Incident INC-7, open, of a Product. */
const incidentOf = (shop: Product): IncidentReport => ({
  product: shop.ref,
  id: 'INC-7',
  state: 'open',
  url: 'https://status.example/incidents/INC-7',
});

/**
 * The incident gate, fed by events and over HTTP, on the in-memory fakes through the composition
 * root (issue 46; this ran on the simulator before). Each block has a backend of its own and
 * each test a Product of its own: its promotions and incidents are that Product's.
 */
describe('the incident gate', () => {
  describe('the incident gate in block mode, fed by events', () => {
    const audit: Recorded[] = [];
    const { handle, publish } = startWithIncidents({ stages: ['prod'], mode: 'block' }, audit);

    it('blocks prod while an incident is open: 409 on request, a failing status on the open PR, the incident on the ladder; a resolve releases it', async () => {
      const shop = handle.world.addProduct('alpha/shop');
      const incident = incidentOf(shop);
      const api = client(handle.world, shop);
      const requested = await api.requestInto('prod');
      expect(requested.status).toBe(201);
      const promotion: Promotion = requested.body.promotion;

      await publish(incident);
      const failing = await api.headStatus(promotion.pullRequest.number, state => state === 'failure');
      expect(failing.description).toBe(`prod is closed while incident INC-7 (${incident.url}) is open`);
      expect((await api.approve(promotion.id, 'alice')).status).toBe(200);

      const refused = await api.requestInto('prod');
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(
        `Promotion into prod refused by policy: incident: prod is closed while incident INC-7 (${incident.url}) is open`,
      );

      const ladder = await api.ladder();
      expect(ladder.incidents).toEqual([{ id: 'INC-7', url: incident.url, openedAt: expect.any(String) }]);
      const prod = ladder.stages.find(stage => stage.name === 'prod')!;
      expect(prod.incidentGate).toMatchObject({ mode: 'block', incidents: [{ id: 'INC-7' }] });
      expect(ladder.stages.find(stage => stage.name === 'staging')!.incidentGate).toBeUndefined();
      // Approved, and held by the incident alone.
      expect((await api.detail(promotion.id)).promotion.status).toBe('approved');

      // A second delivery of the same report changes nothing.
      await publish(incident);
      await publish({ ...incident, state: 'resolved' });
      await api.merged(promotion.id);
      const released = await api.headStatus(promotion.pullRequest.number, state => state === 'success');
      expect(released.description).toBe('No open incident');
      expect((await api.ladder()).incidents).toEqual([]);

      const { events } = await api.detail(promotion.id);
      expect(events.filter(event => event.type === 'guard-verdict').map(event => event.detail)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/incident: block: prod is closed while incident INC-7/),
          expect.stringMatching(/incident: allow: No open incident/),
        ]),
      );
      const incidentEvents = audit.filter(event => event.eventId.startsWith('incident-') && event.status === 'succeeded');
      expect(incidentEvents.map(event => [event.eventId, event.meta])).toEqual([
        ['incident-open', expect.objectContaining({ product: shop.ref, incident: 'INC-7', url: incident.url, source: 'events', changed: true })],
        ['incident-open', expect.objectContaining({ incident: 'INC-7', changed: false })],
        ['incident-resolve', expect.objectContaining({ incident: 'INC-7', changed: true })],
      ]);
    });
  });

  describe('the incident gate in approval mode, fed over HTTP', () => {
    const { handle } = startWithIncidents({
      stages: ['test', 'prod'],
      mode: 'approval',
      commanders: ['group:default/incident-commanders'],
    });
    /** A Product of the test's own, its incident INC-7 and the routes for it. */
    const productOfTest = () => {
      const shop = handle.world.addProduct('alpha/shop');
      return { shop, incident: incidentOf(shop), api: client(handle.world, shop) };
    };
    const report = (body: unknown, authorization: string) =>
      request(handle.world.server).post('/api/promotions/incidents').set('Authorization', authorization).send(body as object);

    it('takes reports from services only, and says what is wrong with a malformed one', async () => {
      const { incident, api } = productOfTest();
      expect((await report(incident, asUser('alice'))).status).toBe(403);
      const malformed = await report({ ...incident, product: 'shop', url: 'ftp://x' }, mockCredentials.service.header());
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.message).toMatch(/request\/body\/product must match pattern/);
      expect((await api.ladder()).incidents).toEqual([]);
    });

    it("needs an incident commander's approval besides a release-approver's while the incident is open", async () => {
      const { incident, api } = productOfTest();
      // Reported first: a promotion into a healthy test would otherwise merge before the report lands.
      const opened = await report(incident, mockCredentials.service.header());
      expect(opened.status).toBe(200);
      expect(opened.body).toEqual({ incident, changed: true });
      expect((await report(incident, mockCredentials.service.header())).body.changed).toBe(false);

      // test needs no approval of its own: the incident asks for both.
      const requested = await api.requestInto('test', ['storefront']);
      expect(requested.status).toBe(201);
      const promotion: Promotion = requested.body.promotion;
      const pending = await api.headStatus(promotion.pullRequest.number, state => state === 'pending');
      expect(pending.description).toMatch(/^incident INC-7 .* is open: test needs an approval from an incident commander/);
      // dave commands incidents and approves no releases: his inbox lists it all the same.
      const both = ['approvers', 'incident-commander'];
      expect(await eventually(async () => (await api.inbox('dave'))[promotion.id])).toEqual(both);
      expect((await api.inbox('alice'))[promotion.id]).toEqual(both);

      const byAlice = await api.approve(promotion.id, 'alice');
      expect(byAlice.status).toBe(200);
      expect(byAlice.body.promotion).toMatchObject({
        status: 'awaiting-approval',
        statusReason: '1 of 1 approvals (Alice Approver); waiting for an incident commander (incident-commanders)',
      });
      // The ladder says what it still waits for: the quorum is met, the commander's approval is not given.
      const partly = await eventually(async () => {
        const onLadder = (await api.ladder()).promotions.find(p => p.id === promotion.id);
        return onLadder?.approval?.approvals.length ? onLadder.approval : undefined;
      });
      expect(partly).toMatchObject({
        approvals: [{ approver: 'user:default/alice', role: 'release-approver' }],
        progress: '1 of 1',
        quorumMet: true,
        commanderNeeded: true,
      });
      expect((await api.approve(promotion.id, 'bob')).status).toBe(403);
      // The quorum is met: only a commander's approval counts now.
      expect(await api.inbox('dave')).toEqual({ [promotion.id]: ['incident-commander'] });
      expect(await api.inbox('carol')).toEqual({});

      const byDave = await api.approve(promotion.id, 'dave');
      expect(byDave.status).toBe(200);
      expect(byDave.body.promotion).toMatchObject({ status: 'approved', approvedBy: 'user:default/alice, user:default/dave' });
      expect(await api.inbox('dave')).toEqual({});
      await api.merged(promotion.id);
      const allowed = await api.headStatus(promotion.pullRequest.number, state => state === 'success');
      expect(allowed.description).toMatch(/^Approved by incident commander Dave Dispatcher while incident INC-7/);
      const { events } = await api.detail(promotion.id);
      expect(events).toEqual(
        expect.arrayContaining([expect.objectContaining({ type: 'incident-approved', actor: 'user:default/dave' })]),
      );
    });

    it("approves a prod promotion whose release-approvers' quorum was met once the incident is resolved", async () => {
      const { incident, api } = productOfTest();
      expect((await report(incident, mockCredentials.service.header())).body.changed).toBe(true);
      const requested = await api.requestInto('prod');
      expect(requested.status).toBe(201);
      const promotion: Promotion = requested.body.promotion;
      const byAlice = await api.approve(promotion.id, 'alice');
      expect(byAlice.body.promotion).toMatchObject({ status: 'awaiting-approval', statusReason: expect.stringMatching(/waiting for an incident commander/) });

      const resolved = await report({ ...incident, state: 'resolved' }, mockCredentials.service.header());
      expect(resolved.body.changed).toBe(true);
      const merged = await api.merged(promotion.id);
      expect(merged.approvedBy).toBe('user:default/alice');
    });
  });
});
