import { gzipSync } from 'zlib';
import {
  STAGES,
  digestFor,
  environmentPath,
  releasePath,
  renderEnvironment,
  renderRelease,
  stageName,
} from '@refplat/platform-sim';
import { RunningStack, putPlatformFiles, startStack, userToken } from '../__testUtils__/stack';
import { latencySummary, machine, writeResult } from './__testUtils__/benchResults';

/**
 * Benchmark, not a test: run with `npm run bench`. Measures ladder views
 * through the real backend against the simulator: upstream calls (GitHub and
 * ArgoCD, from the simulator's request log) per view and per cache TTL, and
 * latency percentiles, cold, for one viewer back to back, for many viewers at
 * once, and right after a Release change; the ladder's size at 3 and 30
 * Services; and the view of a 30-Service Product while all of dev canaries.
 */
const WARM_VIEWS = Number(process.env.BENCH_VIEWS ?? 200);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 20);
/** promotions.cacheTtl's default, set explicitly so the per-TTL numbers divide by the real TTL. */
const CACHE_TTL_MS = 5_000;
/** Each of the many viewers views back to back this long: a few TTLs. */
const VIEWERS_MS = Number(process.env.BENCH_VIEWERS_MS ?? 3 * CACHE_TTL_MS);
const CHANGE_VISIBLE_TIMEOUT_MS = 60_000;
/** The wide Product: this many Services on every stage. */
const WIDE_SERVICES = 30;
const WIDE_VIEWS = Number(process.env.BENCH_WIDE_VIEWS ?? 30);

jest.setTimeout(600_000);

/** The ladder the frontend loads and refreshes: without each cell's details (read when a cell is opened). */
const SUMMARY = '?detail=summary';

/**
 * One ladder view as a browser makes it (`route`: the ladder's, or a query or cell route
 * after it); the body's size raw and as gzip (what `compression` sends).
 */
async function viewLadder(baseUrl: string, token: string, product: string, route = '') {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/promotions/products/${product}/ladder${route}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`ladder answered ${response.status}: ${text.slice(0, 200)}`);
  const ms = performance.now() - started;
  return { ms, text, revision: (JSON.parse(text) as { revision?: string }).revision };
}

function sizeOf(text: string) {
  return { rawBytes: Buffer.byteLength(text), gzipBytes: gzipSync(text).length };
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + CHANGE_VISIBLE_TIMEOUT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

describe('ladder view benchmark', () => {
  let stack: RunningStack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack({}, { cacheTtl: { milliseconds: CACHE_TTL_MS } });
    token = await userToken(stack.baseUrl, 'bob');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const view = (product: string) => viewLadder(stack.baseUrl, token, product);

  function upstreamCalls() {
    const calls = stack.sim.control.getRequests();
    stack.sim.control.clearRequests();
    const github = calls.filter(c => c.target === 'github');
    const argocd = calls.filter(c => c.target === 'argocd');
    return {
      github: github.length,
      github304: github.filter(c => c.status === 304).length,
      headChecks: github.filter(c => c.path.endsWith('/commits/heads/main')).length,
      argocd: argocd.length,
      argocdLists: argocd.filter(c => c.path === '/api/v1/applications').length,
    };
  }

  /** Upstream cost of a run of views, per view and per TTL window the run spans. */
  function costPerTtl(views: number, elapsedMs: number) {
    const calls = upstreamCalls();
    const ttlWindows = Math.ceil(elapsedMs / CACHE_TTL_MS);
    return {
      views,
      elapsedMs: Math.round(elapsedMs),
      ttlWindows,
      ...calls,
      githubPerView: calls.github / views,
      argocdPerView: calls.argocd / views,
      githubPerTtl: calls.github / ttlWindows,
      argocdListsPerTtl: calls.argocdLists / ttlWindows,
    };
  }

  it('measures cold views, back-to-back views, many viewers and a Release change', async () => {
    stack.sim.control.clearRequests();
    const coldMs = (await view('alpha/shop')).ms;
    const cold = upstreamCalls();

    let started = performance.now();
    const backToBack: number[] = [];
    for (let i = 0; i < WARM_VIEWS; i++) backToBack.push((await view('alpha/shop')).ms);
    const oneViewer = {
      ...costPerTtl(WARM_VIEWS, performance.now() - started),
      ...latencySummary(backToBack),
    };

    started = performance.now();
    const deadline = started + VIEWERS_MS;
    const perViewer = await Promise.all(
      Array.from({ length: VIEWERS }, async () => {
        const latencies: number[] = [];
        while (performance.now() < deadline) latencies.push((await view('alpha/shop')).ms);
        return latencies;
      }),
    );
    const all = perViewer.flat();
    const manyViewers = {
      viewers: VIEWERS,
      ...costPerTtl(all.length, performance.now() - started),
      ...latencySummary(all),
    };

    const size = sizeOf((await view('alpha/shop')).text);

    const before = (await view('alpha/shop')).revision;
    await stack.sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'cart' });
    stack.sim.control.clearRequests();
    const pushed = performance.now();
    let afterChangeMs = 0;
    for (;;) {
      const seen = await view('alpha/shop');
      if (seen.revision !== before) {
        afterChangeMs = seen.ms;
        break;
      }
      if (performance.now() - pushed > CHANGE_VISIBLE_TIMEOUT_MS) {
        throw new Error('the Release change did not show within a minute');
      }
    }
    const changeVisibleAfterMs = Math.round(performance.now() - pushed);
    const afterChange = upstreamCalls();

    const result = {
      product: 'alpha/shop (5 stages × 3 services)',
      cacheTtlMs: CACHE_TTL_MS,
      cold: { ms: Math.round(coldMs), ...cold },
      oneViewerBackToBack: oneViewer,
      manyViewers,
      size,
      afterOneReleaseChange: { ms: Math.round(afterChangeMs), changeVisibleAfterMs, ...afterChange },
    };
    writeResult('ladder.json', result);
    for (const run of [oneViewer, manyViewers]) {
      expect(run.headChecks).toBeLessThanOrEqual(run.ttlWindows);
      expect(run.argocdLists).toBeLessThanOrEqual(run.ttlWindows);
    }
  });
});

/**
 * A Product with 30 Services (the platform-repo shape: the simulator makes an
 * Application of each Release file) whose dev stage canaries every Service at
 * once, frozen mid-canary; `cacheTtl: 0`, so each view reads the Application
 * list and every Rollout that is not Healthy: the worst case of one view.
 */
describe('ladder view benchmark, 30 Services mid-canary', () => {
  const team = 'wide';
  const product = 'services30';
  const services = Array.from({ length: WIDE_SERVICES }, (_, i) => `svc${String(i).padStart(2, '0')}`);
  let stack: RunningStack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack(
      { argocdVersion: '3', applicationSource: 'platform-repo' },
      { cacheTtl: { milliseconds: 0 } },
    );
    token = await userToken(stack.baseUrl, 'bob');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const putFiles = (message: string, files: Record<string, string>) => putPlatformFiles(stack, message, files);

  const digests = (build: string) =>
    Object.fromEntries(services.map(service => [service, digestFor(`${team}/${product}/${service}:${build}`)]));
  const rolloutsOf = (app: string) => stack.sim.control.getState().rollouts.filter(r => r.app === app);

  it('measures the view of a 30-Service Product while dev canaries all 30', async () => {
    const files: Record<string, string> = {};
    for (const stage of STAGES) {
      const key = { team, product, stage };
      files[releasePath(key)] = renderRelease(key, digests('v1'));
      files[environmentPath(key)] = renderEnvironment(key, services);
    }
    await putFiles(`bench: ${team}/${product}, ${WIDE_SERVICES} Services`, files);
    const dev = stageName({ team, product, stage: 'dev' });
    await waitFor('the wide Product healthy', () =>
      STAGES.every(stage => {
        const rollouts = rolloutsOf(stageName({ team, product, stage }));
        return rollouts.length === WIDE_SERVICES && rollouts.every(r => r.phase === 'Healthy');
      }),
    );
    const healthy = await viewLadder(stack.baseUrl, token, `${team}/${product}`);
    const healthySummary = await viewLadder(stack.baseUrl, token, `${team}/${product}`, SUMMARY);

    stack.sim.control.setApp(dev, { freezeCanary: true });
    await putFiles('bench: a new build of every Service in dev', {
      [releasePath({ team, product, stage: 'dev' })]: renderRelease({ team, product, stage: 'dev' }, digests('v2')),
    });
    await waitFor('every dev Service mid-canary', () => {
      const rollouts = rolloutsOf(dev);
      return rollouts.length === WIDE_SERVICES && rollouts.every(r => r.phase === 'Progressing');
    });
    await waitFor('the ladder to show the canaries', async () => {
      const { text } = await viewLadder(stack.baseUrl, token, `${team}/${product}`);
      const ladder = JSON.parse(text) as { stages: Array<{ name: string; services: Record<string, { canary?: unknown }> }> };
      return Object.values(ladder.stages.find(s => s.name === 'dev')!.services).every(cell => cell.canary);
    });

    stack.sim.control.clearRequests();
    const latencies: number[] = [];
    let midCanary = '';
    for (let i = 0; i < WIDE_VIEWS; i++) {
      const seen = await viewLadder(stack.baseUrl, token, `${team}/${product}`);
      latencies.push(seen.ms);
      midCanary = seen.text;
    }
    // A copy: the views below add to the simulator's log.
    const argocd = [...stack.sim.control.getRequests('argocd')];
    // What the frontend loads instead, and what it reads when someone opens a canarying cell.
    const midCanarySummary = await viewLadder(stack.baseUrl, token, `${team}/${product}`, SUMMARY);
    const oneCell = await viewLadder(stack.baseUrl, token, `${team}/${product}`, `/stages/dev/services/${services[0]}`);
    stack.sim.control.setApp(dev, { freezeCanary: false });

    const resourceReads = argocd.filter(c => c.path.endsWith('/resource'));
    const rolloutReads = resourceReads.filter(c => c.query.includes('kind=Rollout'));
    writeResult('ladder-30-services.json', {
      product: `${team}/${product} (5 stages × ${WIDE_SERVICES} services, ArgoCD 3, Applications sync the platform repo)`,
      cacheTtlMs: 0,
      machine: machine(),
      sizeHealthy: sizeOf(healthy.text),
      sizeMidCanary: sizeOf(midCanary),
      // `?detail=summary`: what the frontend loads and refreshes; a cell's details on demand.
      summarySizeHealthy: sizeOf(healthySummary.text),
      summarySizeMidCanary: sizeOf(midCanarySummary.text),
      oneCanaryingCellSize: sizeOf(oneCell.text),
      midCanary: {
        views: WIDE_VIEWS,
        canaryingServices: WIDE_SERVICES,
        ...latencySummary(latencies),
        argocdPerView: argocd.length / WIDE_VIEWS,
        rolloutReadsPerView: rolloutReads.length / WIDE_VIEWS,
        // The other live objects read (Pods, HTTPRoutes: a diagnosis's hop evidence).
        otherResourceReadsPerView: (resourceReads.length - rolloutReads.length) / WIDE_VIEWS,
        // The rest of the hop evidence: the events of each rolling ReplicaSet and its Pods, and the resource tree.
        eventReadsPerView: argocd.filter(c => c.path.endsWith('/events')).length / WIDE_VIEWS,
        treeReadsPerView: argocd.filter(c => c.path.endsWith('/resource-tree')).length / WIDE_VIEWS,
        // How long the simulator itself took to answer: the part of a view the plugin does not spend.
        simulatorMsPerRolloutRead: latencySummary(rolloutReads.map(c => c.durationMs)),
      },
    });
    // A live Rollout is read only where its health is not Healthy: dev's 30, once per view.
    expect(rolloutReads).toHaveLength(WIDE_SERVICES * WIDE_VIEWS);
  });
});
