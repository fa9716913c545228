import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { startPlatformSim, RunningSim } from '../sim';
import { SimOptions } from '../options';

/** Fast timings so canaries finish in about a second. */
export const FAST_TIMINGS: Partial<SimOptions> = {
  reconcileIntervalMs: 20,
  syncDelayMs: 50,
  canaryStepMs: 200,
};

/** Starts an in-process simulator on a random port; call `stopTestSim` in afterAll. */
export function startTestSim(
  options: Partial<SimOptions> = {},
): Promise<RunningSim> {
  return startPlatformSim({ ...FAST_TIMINGS, ...options });
}

/** Stops a simulator; its temp data dir goes with it. */
export async function stopTestSim(sim: RunningSim | undefined): Promise<void> {
  await sim?.stop();
}

/**
 * A sync delay long enough for a test to see OutOfSync before the sync runs, also when
 * each observation (two requests) takes several hundred ms on a loaded machine: the
 * reconcile loop's suite, and the suites that share its simulators.
 */
export const OBSERVABLE_SYNC: Partial<SimOptions> = { syncDelayMs: 1500 };

/**
 * The simulators of the test file, one per distinct set of options (FAST_TIMINGS
 * included): suites a file groups share one when they ask for the same options.
 * Jest loads this module once per test file, so the pool is the file's.
 */
const fileSims = new Map<string, Promise<RunningSim>>();

// Declared when the test file imports this module, so before the file's own
// root-level hooks, and root-level afterAll hooks run in declaration order:
// nothing declared later at the root may need these simulators. Hooks of
// describe blocks (the suites') run before any root-level afterAll.
afterAll(async () => {
  const sims = [...fileSims.values()];
  fileSims.clear();
  await Promise.all(
    sims.map(async sim => stopTestSim(await sim.catch(() => undefined))),
  );
});

/**
 * The test file's simulator for `options` (with FAST_TIMINGS), started by the
 * first suite that asks and stopped after the file's last test: call it in
 * beforeAll, and do not stop it. Suites on one simulator run one after another
 * on one platform: one that changes what another reads works on a Product of
 * its own (control.addProduct), and one that reads the seeded platform as a
 * whole (counts every Application) runs before any Product is added.
 */
export function fileTestSim(
  options: Partial<SimOptions> = {},
): Promise<RunningSim> {
  const resolved = { ...FAST_TIMINGS, ...options };
  const key = JSON.stringify(
    Object.entries(resolved).sort(([a], [b]) => a.localeCompare(b)),
  );
  let sim = fileSims.get(key);
  if (!sim) {
    sim = startPlatformSim(resolved);
    fileSims.set(key, sim);
  }
  return sim;
}

const RetryingOctokit = Octokit.plugin(retry, throttling);

/**
 * A stand-in for a Bottleneck group that runs jobs at once. The throttling
 * plugin spaces writes 1 s apart and PR/comment/merge calls 3 s apart to be
 * kind to github.com; against the simulator that pacing only slows tests.
 * Its rate-limit detection and retry logic stay as they are.
 */
// The throttling plugin paces writes one second apart (GitHub's advice);
// tests run each job at once through this stand-in for a Bottleneck group.
const UNPACED = {
  key: () => ({
    schedule: (
      _options: unknown,
      job: (...args: any[]) => any,
      ...args: any[]
    ) => job(...args),
  }),
} as unknown as ThrottlingGroup;
type ThrottlingGroup = NonNullable<
  NonNullable<ConstructorParameters<typeof Octokit>[0]>['throttle']
>['write'];

/**
 * Octokit as the promotions backend uses it: retry + throttling plugins.
 * Retry waits are shortened (retryAfterBaseValue) so the suite stays fast.
 */
export function octokitFor(
  sim: RunningSim,
  token = 'sim-github-token',
  events: string[] = [],
): Octokit {
  return new RetryingOctokit({
    auth: token,
    baseUrl: sim.githubApiUrl,
    retry: { retryAfterBaseValue: 10 },
    throttle: {
      write: UNPACED,
      notifications: UNPACED,
      retryAfterBaseValue: 50,
      onRateLimit: (
        retryAfter: number,
        options: any,
        _octokit: unknown,
        retryCount: number,
      ) => {
        events.push(
          `rate-limit ${options.method} ${options.url} retryAfter=${retryAfter}`,
        );
        return retryCount < 2;
      },
      onSecondaryRateLimit: (
        retryAfter: number,
        options: any,
        _octokit: unknown,
        retryCount: number,
      ) => {
        events.push(
          `secondary-rate-limit ${options.method} ${options.url} retryAfter=${retryAfter}`,
        );
        return retryCount < 2;
      },
    },
  });
}

/** Polls `probe` until it returns a truthy value (returned) or the time is up (throws with the last value). */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  timeoutMs = 30_000,
  intervalMs = 15,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`waitFor timed out; last value ${JSON.stringify(last)}`);
    await new Promise(resolve => setTimeout(resolve, intervalMs));
  }
}

/** GET JSON with a bearer token (for the Argo CD and control APIs). */
export async function getJson(
  url: string,
  token?: string,
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return {
    status: response.status,
    body: parseBody(await response.text()),
    headers: response.headers,
  };
}

/** JSON when it is JSON (error pages of a downed service are plain text). */
function parseBody(text: string): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function postJson(
  url: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: parseBody(await response.text()) };
}

/**
 * Loads @kubernetes/client-node (ESM-only) as the backend does, with a dynamic import.
 * Jest cannot run a real dynamic import without --experimental-vm-modules; there its
 * SWC transform turns the package into CommonJS, so require() is the fallback.
 */
export async function loadKubernetesClient(): Promise<any> {
  try {
    return await import('@kubernetes/client-node');
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('@kubernetes/client-node');
  }
}
