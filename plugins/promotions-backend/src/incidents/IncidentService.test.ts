import { randomUUID } from 'crypto';
import { TestDatabases, mockServices } from '@backstage/backend-test-utils';
import { DatabasePromotionStore } from '../database/DatabasePromotionStore';
import { IncidentService } from './IncidentService';
import { DatabaseIncidentStore } from './IncidentStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['SQLITE_3'] });
const digest = (c: string) => `sha256:${c.repeat(64)}`;
const shop = { team: 'alpha', product: 'shop' };
const INC = { product: 'alpha/shop', id: 'INC-9', state: 'open', url: 'https://status.example/INC-9' } as const;

async function setUp() {
  const knex = await databases.init('SQLITE_3');
  const store = await DatabasePromotionStore.create({ getClient: async () => knex, migrations: { skip: false } });
  const checkPromotion = jest.fn(async (_id: string) => {});
  const logger = mockServices.logger.mock();
  const service = new IncidentService({
    policy: { stages: ['prod'], mode: 'approval', commanders: ['group:default/incident-commanders'] },
    incidents: new DatabaseIncidentStore(knex),
    store,
    settleApproval: async () => undefined,
    livePromotions: product => store.listForProduct(product.team, product.product, 50),
    checkPromotion,
    productChanged: async () => {},
    auditor: mockServices.auditor.mock(),
    logger,
  });
  return { store, service, checkPromotion, logger };
}

async function approvedPromotion(store: DatabasePromotionStore, toStage: string) {
  const id = randomUUID();
  await store.insertLive(
    {
      id,
      ...shop,
      kind: 'promotion',
      fromStage: 'staging',
      toStage,
      services: { cart: digest('a') },
      previousServices: { cart: digest('b') },
      fingerprint: id,
      status: 'awaiting-approval',
      requestedBy: 'user:default/bob',
      branch: `promotions/${id}`,
    },
    'user:default/bob',
  );
  await store.transition(id, { noPullRequest: true }, { pullRequest: { number: 7, url: 'https://x/pull/7' }, headSha: 'h1' });
  return (await store.transition(
    id,
    { status: ['awaiting-approval'] },
    { status: 'approved', approvedBy: 'user:default/alice', approvedSha: 'h1' },
    { type: 'approved', actor: 'user:default/alice', detail: 'h1' },
  ))!;
}

describe('IncidentService in approval mode', () => {
  it("sends a promotion approved before the incident opened back to wait for a commander, keeping its approvals, and has the Gate look", async () => {
    const { store, service, checkPromotion } = await setUp();
    const prod = await approvedPromotion(store, 'prod');

    expect(await service.report(INC, { via: 'events' })).toEqual({ incident: INC, changed: true });

    const waiting = await store.get(prod.id);
    expect(waiting).toMatchObject({
      status: 'awaiting-approval',
      statusReason: 'Incident INC-9 opened (https://status.example/INC-9): an incident commander must approve it as well',
    });
    expect(waiting!.approvedSha).toBeUndefined();
    expect((await store.listEvents(prod.id)).filter(event => event.type === 'approved')).toHaveLength(1);
    expect(checkPromotion).toHaveBeenCalledWith(prod.id);
  });

  it('leaves approvals into stages the incident gate does not guard, and a repeated report changes nothing', async () => {
    const { store, service } = await setUp();
    const staging = await approvedPromotion(store, 'staging');
    await service.report(INC, { via: 'events' });
    expect((await store.get(staging.id))!.status).toBe('approved');
    expect((await service.report(INC, { via: 'events' })).changed).toBe(false);
  });

  it("logs a malformed report from the topic, saying what openapi.yaml's IncidentReport refuses, and records nothing", async () => {
    const { service, logger } = await setUp();
    let onEvent: (event: { topic: string; eventPayload: unknown }) => Promise<void> = async () => {};
    await service.subscribe({ subscribe: async (subscriber: { onEvent: typeof onEvent }) => void (onEvent = subscriber.onEvent) } as never);
    await onEvent({ topic: 'promotions.incidents', eventPayload: { ...INC, state: 'closed', id: '' } });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/InputError: body\/id must match pattern/));
    await onEvent({ topic: 'promotions.incidents', eventPayload: { ...INC, state: 'closed' } });
    expect(logger.warn).toHaveBeenLastCalledWith(expect.stringMatching(/body\/state must be equal to one of the allowed values: open, resolved/));
    expect((await service.report(INC, { via: 'events' })).changed).toBe(true);
  });

  it('keeps and answers the four fields of a report, its id trimmed', async () => {
    const { service } = await setUp();
    const padded = { ...INC, id: ' INC-9 ', extra: 'dropped' };
    expect((await service.report(padded, { via: 'events' })).incident).toEqual(INC);
  });
});
