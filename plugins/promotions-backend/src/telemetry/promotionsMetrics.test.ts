import { Octokit } from '@octokit/rest';
import { mockLogger } from '../__testUtils__/lightServices';
import { observeRateLimit } from '../github/observeRateLimit';
import { WriteBudget } from '../github/WriteBudget';
import { ApplicationWatch } from '../health/ApplicationWatch';
import { HealthStream } from '../health/HealthStream';
import { PromotionGuards } from '../guards/PromotionGuards';
import { SHOP, digest, promotionsWorld } from '../promotions/__testUtils__/promotionsWorld';
import { observeWriteBudget } from './promotionsMetrics';
import { installMetricsReader } from './__testUtils__/metricsReader';

const ALICE = 'user:default/alice';

describe('the plugin\'s metrics, read through the OpenTelemetry SDK', () => {
  let reader: ReturnType<typeof installMetricsReader>;
  beforeEach(() => {
    reader = installMetricsReader();
  });
  afterEach(() => reader.uninstall());

  it('counts a request, the Gate\'s merge and the ending, and times the PR from opening to merge', async () => {
    const world = promotionsWorld();
    world.runAsReleased();
    await world.promotionService().request(SHOP, { toStage: 'uat' }, ALICE);
    world.clock.advance({ minutes: 5 });

    await world.gate().checkAll();

    const recorded = await reader.collect();
    expect(recorded['promotions.requested']).toEqual([{ attributes: { 'promotion.kind': 'promotion' }, value: 1 }]);
    expect(recorded['promotions.gate.decisions']).toEqual([{ attributes: { 'gate.decision': 'merge' }, value: 1 }]);
    expect(recorded['promotions.ended']).toEqual([
      { attributes: { 'promotion.kind': 'promotion', 'promotion.outcome': 'merged' }, value: 1 },
    ]);
    expect(recorded['promotions.gate.open_to_merge.duration']).toEqual([
      { attributes: { 'promotion.kind': 'promotion', 'promotion.merged_by': 'gate' }, value: { count: 1, sum: 300 } },
    ]);
  });

  it("counts what the Gate waits for at each check, and a close as the promotion's ending", async () => {
    const world = promotionsWorld();
    const blocking = new PromotionGuards(
      [{ name: 'change-window', evaluate: async () => ({ verdict: 'block', reason: 'frozen' }) }],
      world.logger,
    );
    world.health.dev = 'progressing';
    await world.request('uat', { api: digest('b') });
    await world.gate().checkAll();
    world.health.dev = 'healthy';
    await world.gate(blocking).checkAll();
    // dev no longer runs what the promotion carries: the Gate closes it.
    await world.request('prod', { api: digest('c') });
    await world.gate(blocking).checkAll();

    const recorded = await reader.collect();
    expect(recorded['promotions.gate.decisions']).toEqual(
      expect.arrayContaining([
        { attributes: { 'gate.decision': 'wait-for-health' }, value: 1 },
        { attributes: { 'gate.decision': 'blocked-by-guard' }, value: 2 },
        { attributes: { 'gate.decision': 'close' }, value: 1 },
      ]),
    );
    expect(recorded['promotions.gate.decisions']).toHaveLength(3);
    expect(recorded['promotions.ended']).toEqual([
      { attributes: { 'promotion.kind': 'promotion', 'promotion.outcome': 'closed' }, value: 1 },
    ]);
  });

  it("reports the auto-promoter's run and Products, and the write queue's depth as it last listed itself", async () => {
    const world = promotionsWorld();
    world.runAsReleased();

    await world.autoPromoter().run();
    expect((await world.writeQueue.state()).waiting).toBe(1);
    const queued = await reader.collect();
    await world.writeQueue.drain();
    const drained = await reader.collect();

    expect(queued['promotions.auto_promoter.products']).toEqual([{ attributes: { 'auto_promoter.outcome': 'queued' }, value: 1 }]);
    const [run] = queued['promotions.auto_promoter.run.duration'];
    expect(run).toMatchObject({ attributes: {}, value: { count: 1 } });
    expect((run.value as { sum: number }).sum).toBeGreaterThan(0);
    expect(queued['promotions.requested']).toEqual([{ attributes: { 'promotion.kind': 'promotion' }, value: 1 }]);
    expect(queued['promotions.write_queue.depth']).toEqual([{ attributes: {}, value: 1 }]);
    expect(drained['promotions.write_queue.depth']).toEqual([{ attributes: {}, value: 0 }]);
  });

  it("reports the write budget's remaining writes per window and its next opening, from memory", async () => {
    let now = 1_000_000;
    const budget = new WriteBudget({ perMinute: 2, perHour: 3 }, { now: () => now, sleep: async () => {} });
    observeWriteBudget('github.example.com', () => budget.reading());
    (await budget.acquire())();
    now += 10_000;
    (await budget.acquire())();

    const recorded = await reader.collect();

    expect(recorded['promotions.github.write_budget.remaining']).toEqual([
      { attributes: { 'github.host': 'github.example.com', 'github.write_budget.window': 'minute' }, value: 0 },
      { attributes: { 'github.host': 'github.example.com', 'github.write_budget.window': 'hour' }, value: 1 },
    ]);
    // The first write leaves the minute's window 60 s after it was made, 50 s from now.
    expect(recorded['promotions.github.write_budget.next_opening']).toEqual([
      { attributes: { 'github.host': 'github.example.com' }, value: 50 },
    ]);
  });

  it("reports GitHub's rate limit remaining as its last answer said, an error's included", async () => {
    const answers = [
      new Response('{}', { headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '4999', 'x-ratelimit-resource': 'core' } }),
      new Response('{"message":"Not Found"}', {
        status: 404,
        headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '4998', 'x-ratelimit-resource': 'core' },
      }),
    ];
    const octokit = new Octokit({ request: { fetch: async () => answers.shift()! } });
    observeRateLimit(octokit, 'github.example.com');

    await octokit.request('GET /repos/{owner}/{repo}', { owner: 'platform', repo: 'gitops' });
    const afterSuccess = await reader.collect();
    await expect(octokit.request('GET /repos/{owner}/{repo}', { owner: 'platform', repo: 'gone' })).rejects.toThrow('Not Found');
    const afterError = await reader.collect();

    const point = (value: number) => [
      { attributes: { 'github.host': 'github.example.com', 'github.rate_limit.resource': 'core' }, value },
    ];
    expect(afterSuccess['promotions.github.rate_limit.remaining']).toEqual(point(4999));
    expect(afterError['promotions.github.rate_limit.remaining']).toEqual(point(4998));
  });

  it("reports each health stream connected while its watch runs, and not once it stopped", async () => {
    let opened!: () => void;
    const watching = new Promise<void>(resolve => {
      opened = resolve;
    });
    const watch: ApplicationWatch = {
      name: "ArgoCD 'east'",
      instanceName: 'east',
      resumable: true,
      list: async () => ({ applications: [], resourceVersion: '1' }),
      watch: (_from, _onEvent, signal) => {
        opened();
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
      },
    };
    const stream = new HealthStream({
      watches: [watch],
      onProductChanged: async () => {},
      logger: mockLogger(),
      labels: promotionsWorld().config.applicationLabels,
    });

    stream.start();
    await watching;
    const running = await reader.collect();
    await stream.stop();
    const stopped = await reader.collect();

    expect(running['promotions.health_stream.connected']).toEqual([{ attributes: { 'health_stream.instance': 'east' }, value: 1 }]);
    expect(stopped['promotions.health_stream.connected']).toEqual([{ attributes: { 'health_stream.instance': 'east' }, value: 0 }]);
  });
});
