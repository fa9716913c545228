// The reference platform (../shared/tools/reference-platform) in a process of its own: it is plain
// ESM, which Jest's CommonJS runtime cannot import, and its servers then take no CPU from the test
// worker. The parent sends {id, op, target, method, args} over IPC and gets {id, result | error}.
//
//   node host.mjs <reference-platform dir> <argocd version 2|3> <rolloutMs>
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [dir, version, rolloutMs] = process.argv.slice(2);
const load = file => import(pathToFileURL(path.join(dir, file)).href);
const { startFakeGitHub } = await load('fake-github.mjs');
const { startFakeArgoCD } = await load('fake-argocd.mjs');
const { seedPlatformRepo, seedArgo } = await load('seed.mjs');
const { followReleases } = await load('follow.mjs');

const ARGOCD_TOKEN = 'acc-argocd-token';
const gh = await startFakeGitHub({ port: 0 });
const argo = await startFakeArgoCD({ port: 0, token: ARGOCD_TOKEN, version: Number(version) });
seedPlatformRepo(gh);
seedArgo(argo);
let stopFollowing;

const ops = {
  /** A helper of the fake GitHub or ArgoCD (`commitFiles`, `setDegraded`, …). */
  call: ({ target, method, args }) => (target === 'gh' ? gh : argo)[method](...args),
  /** The requests a fake received from index `since` on. */
  calls: ({ target, args }) => (target === 'gh' ? gh : argo).calls.slice(args[0] ?? 0),
  follow: ({ args: [on] }) => {
    stopFollowing?.();
    stopFollowing = on ? followReleases({ gh, argo, rolloutMs: Number(rolloutMs) }) : undefined;
  },
  stop: async () => {
    stopFollowing?.();
    await Promise.all([gh.stop(), argo.stop()]);
    setImmediate(() => process.exit(0));
  },
};

process.on('message', async message => {
  try {
    const result = await ops[message.op](message);
    process.send({ id: message.id, result: result === undefined ? null : result });
  } catch (error) {
    process.send({ id: message.id, error: String(error?.stack ?? error) });
  }
});
// The parent's end: a test worker that dies leaves no servers behind.
process.on('disconnect', () => process.exit(0));
process.send({ ready: { githubUrl: gh.url, argocdUrl: argo.url, argocdToken: ARGOCD_TOKEN } });
