import { mockLogger } from '../__testUtils__/lightServices';
import { PromotionRecord } from '../database/PromotionStore';
import { PromotionsWebhooks } from './PromotionsWebhooks';

const repository = { full_name: 'refplat/platform' };
const HEAD = 'b'.repeat(40);

function live(id: string, product: string, prNumber: number, headSha?: string) {
  const [team, name] = product.split('/');
  return { id, team, product: name, pullRequest: { number: prNumber, url: '' }, headSha } as PromotionRecord;
}

function setup(
  options: {
    autoPromote?: boolean;
    listLive?: () => Promise<PromotionRecord[]>;
    check?: (id: string) => Promise<void>;
    logger?: ReturnType<typeof mockLogger>;
  } = {},
) {
  const calls = { checked: [] as string[], forgot: 0, signalled: [] as string[], autoPromoted: [] as string[][] };
  const webhooks = new PromotionsWebhooks({
    repo: { owner: 'refplat', repo: 'platform', branch: 'main', prefixes: ['gitops/releases', 'gitops/environments'] },
    listLive:
      options.listLive ??
      (async () => [live('p1', 'alpha/shop', 11, HEAD), live('p2', 'beta/payments', 12), live('p3', 'alpha/shop', 13)]),
    check:
      options.check ??
      (async id => {
        calls.checked.push(id);
      }),
    forgetHead: () => {
      calls.forgot += 1;
    },
    productChanged: async product => {
      calls.signalled.push(`${product.team}/${product.product}`);
    },
    autoPromote: options.autoPromote
      ? async products => {
          calls.autoPromoted.push(products.map(p => `${p.team}/${p.product}`));
        }
      : undefined,
    logger: options.logger ?? mockLogger(),
  });
  return { webhooks, calls };
}

describe('PromotionsWebhooks', () => {
  it('a push to the branch forgets the head, checks and signals only the Products it changed, and runs the auto-promoter for them', async () => {
    const { webhooks, calls } = setup({ autoPromote: true });
    await webhooks.onEvent({
      topic: 'github.push',
      eventPayload: {
        ref: 'refs/heads/main',
        repository,
        commits: [{ added: [], removed: [], modified: ['gitops/releases/alpha/shop/test.yaml'] }],
      },
    });
    await webhooks.settled();
    expect(calls.forgot).toBe(1);
    expect(calls.checked.sort()).toEqual(['p1', 'p3']);
    expect(calls.signalled).toEqual(['alpha/shop']);
    expect(calls.autoPromoted).toEqual([['alpha/shop']]);
  });

  it('a force push checks every live promotion, as which files changed is unknown', async () => {
    const { webhooks, calls } = setup();
    await webhooks.onEvent({ topic: 'github.push', eventPayload: { ref: 'refs/heads/main', repository, forced: true, commits: [] } });
    await webhooks.settled();
    expect(calls.checked.sort()).toEqual(['p1', 'p2', 'p3']);
    expect(calls.signalled.sort()).toEqual(['alpha/shop', 'beta/payments']);
  });

  it('a push to another branch does nothing', async () => {
    const { webhooks, calls } = setup({ autoPromote: true });
    await webhooks.onEvent({ topic: 'github.push', eventPayload: { ref: 'refs/heads/promotions/x', repository, commits: [] } });
    await webhooks.settled();
    expect(calls).toEqual({ checked: [], forgot: 0, signalled: [], autoPromoted: [] });
  });

  it.each([
    ['github.pull_request', { action: 'closed', number: 12, pull_request: { merged: true }, repository }, ['p2']],
    ['github.pull_request', { action: 'opened', number: 12, repository }, []],
    ['github.pull_request', { action: 'closed', number: 99, repository }, []],
    ['github.status', { sha: HEAD, context: 'ci/build', state: 'success', repository }, ['p1']],
    ['github.status', { sha: HEAD, context: 'promotions/health', state: 'success', repository }, []],
    ['github.issues', { action: 'opened', repository }, []],
  ])('%s %j checks %j', async (topic, eventPayload, checked) => {
    const { webhooks, calls } = setup();
    await webhooks.onEvent({ topic, eventPayload });
    await webhooks.settled();
    expect(calls.checked).toEqual(checked);
    expect(calls.forgot).toBe(0);
  });

  it('logs a failure instead of throwing: the Gate poll catches up', async () => {
    const logger = mockLogger();
    const { webhooks } = setup({ listLive: () => Promise.reject(new Error('database down')), logger });
    await expect(
      webhooks.onEvent({ topic: 'github.pull_request', eventPayload: { action: 'closed', number: 1, repository } }),
    ).resolves.toBeUndefined();
    await webhooks.settled();
    expect(logger.warn).toHaveBeenCalledWith('Could not act on GitHub event github.pull_request: Error: database down');
  });

  it('answers the delivery before its reaction ends: GitHub waits 10 s at most, a Gate merge can take longer', async () => {
    let finishCheck!: () => void;
    const checking = new Promise<void>(resolve => (finishCheck = resolve));
    const check = jest.fn((_id: string) => checking);
    const { webhooks } = setup({ check });
    await webhooks.onEvent({ topic: 'github.pull_request', eventPayload: { action: 'closed', number: 12, repository } });
    let settled = false;
    const reactionsEnded = webhooks.settled().then(() => (settled = true));
    // Once the queued callbacks ran, the reaction is in the check, which has not ended.
    await new Promise(resolve => setImmediate(resolve));
    expect(check).toHaveBeenCalledWith('p2');
    expect(settled).toBe(false);
    finishCheck();
    await reactionsEnded;
    expect(settled).toBe(true);
  });
});
