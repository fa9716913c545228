import { mockLogger } from '../__testUtils__/lightServices';
import { NotificationSendOptions } from '@backstage/plugin-notifications-node';
import { PromotionEventType, actorNameWithoutCatalog } from '@refplat/plugin-promotions-common';
import { PromotionRecord } from '../database/PromotionStore';
import { PromotionsBroadcaster } from './PromotionsBroadcaster';

const DIGEST_A = `sha256:${'a'.repeat(64)}`;
const DIGEST_B = `sha256:${'b'.repeat(64)}`;

const promotion = (overrides: Partial<PromotionRecord> = {}): PromotionRecord => ({
  id: 'p1',
  team: 'alpha',
  product: 'shop',
  fromStage: 'staging',
  toStage: 'prod',
  services: { storefront: DIGEST_A, cart: DIGEST_B },
  status: 'awaiting-approval',
  requestedBy: 'user:default/bob',
  pullRequest: { number: 7, url: 'https://github.example/refplat/platform/pull/7' },
  createdAt: '2026-12-01T10:00:00Z',
  updatedAt: '2026-12-01T10:00:00Z',
  fingerprint: 'f',
  ...overrides,
});

function broadcaster() {
  const sent: NotificationSendOptions[] = [];
  const subject = new PromotionsBroadcaster({
    notifications: {
      async send(notification) {
        sent.push(notification);
      },
    },
    approvers: async () => ['group:default/release-approvers'],
    approvalStages: ['prod'],
    logger: mockLogger(),
    names: {
      namesOf: async () => actor => (actor === 'user:default/bob' ? 'Bob Builder' : actorNameWithoutCatalog(actor)),
    },
  });
  const send = (record: PromotionRecord, event: PromotionEventType) =>
    subject.promotionChanged(record, event);
  return { sent, send };
}

const recipients = (notification: NotificationSendOptions) =>
  notification.recipients.type === 'entity' ? notification.recipients.entityRef : 'broadcast';

describe('PromotionsBroadcaster notifications', () => {
  it('asks the approvers once per promotion and updates that same notification when it settles', async () => {
    const { sent, send } = broadcaster();
    await send(promotion(), 'pr-opened');
    await send(promotion({ status: 'awaiting-approval', statusReason: 'The head moved' }), 'approval-voided');
    await send(promotion({ status: 'merged' }), 'merged');

    const toApprovers = sent.filter(n => JSON.stringify(recipients(n)).includes('release-approvers'));
    expect(toApprovers.map(n => [n.payload.title, n.payload.severity])).toEqual([
      ['Promote storefront, cart staging → prod in alpha/shop awaits your approval', 'high'],
      ['Promote storefront, cart staging → prod in alpha/shop needs your approval again', 'high'],
      ['No approval needed any more: promote storefront, cart staging → prod in alpha/shop merged', 'low'],
    ]);
    // one scope: the notifications service updates the approver's existing notification
    expect(new Set(toApprovers.map(n => n.payload.scope))).toEqual(new Set(['promotions:p1:approval']));
    // the requester is told of the merge, and never asked to approve
    expect(toApprovers.every(n => n.recipients.type === 'entity' && n.recipients.excludeEntityRef === 'user:default/bob')).toBe(true);
    const toBob = sent.filter(n => recipients(n) === 'user:default/bob');
    expect(toBob.map(n => n.payload.title)).toEqual(['Merged: promote storefront, cart staging → prod in alpha/shop']);
    // People by name: the requester as the catalog calls them, never their ref.
    expect(toApprovers[0].payload.description).toBe(
      'Bob Builder asks to promote storefront, cart staging → prod in alpha/shop (PR #7).',
    );
    expect(JSON.stringify(sent.map(n => n.payload))).not.toMatch(/(user|group):default\//);
  });

  it.each([
    ['closed', 'closed'],
    ['failed', 'failed'],
    ['superseded', 'closed'],
  ] as const)(
    'tells the approvers a %s promotion needs nothing more from them',
    async (event, status) => {
      const { sent, send } = broadcaster();
      await send(promotion({ status, statusReason: 'why it ended' }), event);
      const approvers = sent.find(n => n.payload.scope === 'promotions:p1:approval');
      expect(approvers?.payload).toMatchObject({
        title: `No approval needed any more: promote storefront, cart staging → prod in alpha/shop ${event}`,
        description: 'why it ended',
        severity: 'low',
      });
    },
  );

  it('tells the requester who rejected their promotion and why', async () => {
    const { sent, send } = broadcaster();
    const reason = 'Rejected by Alice Approver: cart 2.3 breaks checkout';
    await send(promotion({ status: 'closed', statusReason: reason }), 'rejected');
    const toBob = sent.filter(n => recipients(n) === 'user:default/bob');
    expect(toBob.map(n => [n.payload.title, n.payload.description])).toEqual([
      ['Rejected: promote storefront, cart staging → prod in alpha/shop', reason],
    ]);
    expect(sent.find(n => n.payload.scope === 'promotions:p1:approval')?.payload.description).toBe(reason);
  });

  it('does not write to the approvers about stages that need no approval', async () => {
    const { sent, send } = broadcaster();
    await send(promotion({ fromStage: 'dev', toStage: 'test', status: 'merged' }), 'merged');
    expect(sent.map(recipients)).toEqual(['user:default/bob']);
  });

  it('words a rollback as one, with the digests it restores', async () => {
    const { sent, send } = broadcaster();
    await send(promotion({ kind: 'rollback', fromStage: 'prod', status: 'merged' }), 'merged');
    const toBob = sent.find(n => recipients(n) === 'user:default/bob');
    expect(toBob?.payload.title).toBe(
      `Merged: roll back prod: storefront to ${DIGEST_A.slice(0, 19)}, cart to ${DIGEST_B.slice(0, 19)} in alpha/shop`,
    );
    expect(sent.map(n => n.payload.title).join('\n')).not.toMatch(/prod → prod/);
  });
});
