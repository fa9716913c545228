import { ChildProcess, fork } from 'child_process';
import { existsSync } from 'fs';
import { resolve } from 'path';
import type { SimAddresses } from '../testBackend';

/**
 * `../shared/tools/reference-platform`, beside the repository root: an independent GitHub and
 * ArgoCD built to the seeds by another hand. Undefined where this checkout has none beside it.
 */
const BESIDE_ROOT = resolve(__dirname, '../../../../../../shared/tools/reference-platform');
export const REFERENCE_PLATFORM_DIR = existsSync(resolve(BESIDE_ROOT, 'fake-github.mjs')) ? BESIDE_ROOT : undefined;

/** The reference platform's repository and tokens (see its seed.mjs and fake-github.mjs). */
export const REFERENCE_REPO = { owner: 'asanexample', repo: 'platform', branch: 'main' };
const BOT_TOKEN = 'acc-bot-token';

/** One request a fake received, as its `calls` list keeps it. */
export interface ReferenceCall {
  method: string;
  path: string;
  status: number;
  route?: string | null;
  free?: boolean;
}

export interface ReferencePlatform {
  /** The addresses the test backend's config takes (simConfig). */
  addresses: SimAddresses;
  /** A helper of the fake GitHub (`gh`) or ArgoCD (`argo`): `readFile`, `setDegraded`, …. */
  call<T = unknown>(target: 'gh' | 'argo', method: string, ...args: unknown[]): Promise<T>;
  calls(target: 'gh' | 'argo', since?: number): Promise<ReferenceCall[]>;
  /** ArgoCD follows merged Releases (the ApplicationSet and the controller), or stops following. */
  follow(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the reference platform, seeded, in a process of its own (host.mjs says why). */
export async function startReferencePlatform(options: {
  argocdVersion: 2 | 3;
  rolloutMs?: number;
}): Promise<ReferencePlatform> {
  if (!REFERENCE_PLATFORM_DIR) throw new Error('No ../shared/tools/reference-platform beside this checkout');
  const child = fork(
    resolve(__dirname, 'host.mjs'),
    [REFERENCE_PLATFORM_DIR, String(options.argocdVersion), String(options.rolloutMs ?? 1500)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const ready = await new Promise<{ githubUrl: string; argocdUrl: string; argocdToken: string }>(
    (resolveReady, reject) => {
      child.once('error', reject);
      child.once('exit', code => reject(new Error(`The reference platform exited (${code}) before it was ready`)));
      child.once('message', message => resolveReady((message as { ready: any }).ready));
    },
  );
  child.removeAllListeners('exit');
  const request = requester(child);
  return {
    addresses: {
      url: ready.githubUrl,
      githubApiUrl: ready.githubUrl,
      argocdUrl: ready.argocdUrl,
      kubernetesUrl: '',
      tokens: { github: BOT_TOKEN, argocd: ready.argocdToken, kubernetes: '' },
    } as SimAddresses,
    call: (target, method, ...args) => request('call', { target, method, args }),
    calls: (target, since = 0) => request('calls', { target, args: [since] }),
    follow: on => request('follow', { args: [on] }),
    async stop() {
      if (!child.connected) return;
      const exited = new Promise(done => child.once('exit', done));
      await request('stop', {}).catch(() => undefined);
      await exited;
    },
  };
}

/** Request/response over the child's IPC channel. */
function requester(child: ChildProcess) {
  let next = 0;
  const pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  child.on('message', (message: any) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(message.error));
    else waiting.resolve(message.result);
  });
  child.on('exit', () => {
    for (const waiting of pending.values()) waiting.reject(new Error('The reference platform exited'));
    pending.clear();
  });
  return (op: string, body: object): Promise<any> =>
    new Promise((resolveReply, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolveReply, reject });
      child.send({ id, op, ...body });
    });
}
