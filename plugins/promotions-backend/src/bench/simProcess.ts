import { fork } from 'child_process';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { GITHUB_WRITE_LIMITS } from '@refplat/platform-sim';
import type { LoggedRequest, RunningSim, SimOptions, SimState } from '@refplat/platform-sim';
import { FAST_SIM_TIMINGS } from '../__testUtils__/testBackend';

/** The parts of a RunningSim a bench uses, from a simulator in a child process; its controls go over /_sim. */
export interface SimInChildProcess
  extends Pick<RunningSim, 'url' | 'githubApiUrl' | 'argocdUrl' | 'kubernetesUrl' | 'tokens' | 'repoDir'> {
  control: {
    addProduct(body: { like: string; product: string }): Promise<unknown>;
    ciPush(body: { team: string; product: string; service: string }): Promise<{ digest: string }>;
    getState(): Promise<SimState>;
    getRequests(): Promise<LoggedRequest[]>;
    clearRequests(): Promise<void>;
  };
  /** The child's process id (its CPU and memory are its own). */
  pid: number;
  stop(): Promise<void>;
}

async function call<T>(url: string, method: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/**
 * Starts the simulator in a Node process of its own, as GitHub and Argo CD
 * run elsewhere than the plugin: in the bench's process, its reconcile loop
 * and answers took a third of the main thread the plugin's run is timed on.
 * The child loads the simulator's TypeScript through sucrase's require hook.
 */
export async function startSimInChildProcess(
  options: Partial<SimOptions> & { withoutApplicationSets?: 'added' },
): Promise<SimInChildProcess> {
  const child = fork(resolvePackagePath('@refplat/plugin-promotions-backend', 'src/bench/simProcessMain.ts'), [], {
    execArgv: ['-r', 'sucrase/register/ts'],
    env: { ...process.env, SIM_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started = await new Promise<Omit<SimInChildProcess, 'control' | 'pid' | 'stop'>>((resolve, reject) => {
    child.once('message', message => resolve(message as Omit<SimInChildProcess, 'control' | 'pid' | 'stop'>));
    child.once('exit', code => reject(new Error(`the simulator's process ended (exit code ${code}) before it answered`)));
  });
  const control = `${started.url}/_sim`;
  return {
    ...started,
    pid: child.pid!,
    control: {
      addProduct: body => call(`${control}/products`, 'POST', body),
      ciPush: body => call(`${control}/ci/push`, 'POST', body),
      getState: () => call(`${control}/state`, 'GET'),
      getRequests: async () => (await call<{ requests: LoggedRequest[] }>(`${control}/requests`, 'GET')).requests,
      clearRequests: () => call(`${control}/requests`, 'DELETE'),
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise(resolve => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}

/**
 * The simulator as the organisation-scale benches run it: quick timings, GitHub's
 * primary rate limit out of the way and its secondary write limit (80 a minute, 500 an
 * hour) enforced, and no ApplicationSet for the Products a bench adds in bulk.
 */
export function startOrgScaleSim(options: Partial<SimOptions> = {}): Promise<SimInChildProcess> {
  return startSimInChildProcess({
    ...FAST_SIM_TIMINGS,
    rateLimit: 1_000_000,
    writeLimits: GITHUB_WRITE_LIMITS,
    withoutApplicationSets: 'added',
    ...options,
  });
}
