import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

/** Everything that can be tuned when starting the simulator. */
export interface SimOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one (what tests want). */
  port: number;
  /** Where the bare git repository and the GitHub metadata live. */
  dataDir: string;
  /** GitHub owner (organisation) of the platform repository. */
  owner: string;
  /** GitHub name of the platform repository. */
  repo: string;
  /** How often the reconcile loop compares `main` with what runs. */
  reconcileIntervalMs: number;
  /** How long an Application stays OutOfSync before its sync operation runs. */
  syncDelayMs: number;
  /** How long each canary pause step lasts (setWeight steps take half of it). */
  canaryStepMs: number;
  /** The canary's setWeight steps, in order; each is followed by a pause. */
  canaryWeights: number[];
  /** Digests whose canary fails analysis and aborts at the first pause. */
  badDigests: string[];
  /** GitHub core rate limit per identity per hour. */
  rateLimit: number;
  /** GitHub token → login. Unknown tokens get 401 Bad credentials. */
  tokens: Record<string, string>;
  /** Bearer token the ArgoCD API accepts. */
  argocdToken: string;
  /** Bearer token the Kubernetes API accepts. */
  kubernetesToken: string;
  /** Write the demo products into a fresh repository. */
  seed: boolean;
}

export const DEFAULT_GITHUB_TOKENS: Readonly<Record<string, string>> = {
  'sim-github-token': 'promotions-bot',
  'sim-alice-token': 'alice',
  'sim-bob-token': 'bob',
};

/** Fills in defaults; a missing dataDir becomes a fresh temp directory. */
export function resolveOptions(partial: Partial<SimOptions> = {}): SimOptions {
  const defined = Object.fromEntries(
    Object.entries(partial).filter(([, value]) => value !== undefined),
  ) as Partial<SimOptions>;
  const options: SimOptions = {
    port: 0,
    dataDir: '',
    owner: 'refplat',
    repo: 'platform',
    reconcileIntervalMs: 500,
    syncDelayMs: 1000,
    canaryStepMs: 3000,
    canaryWeights: [10, 25, 50],
    badDigests: [],
    rateLimit: 5000,
    tokens: { ...DEFAULT_GITHUB_TOKENS },
    argocdToken: 'sim-argocd-token',
    kubernetesToken: 'sim-kubernetes-token',
    seed: true,
    ...defined,
  };
  if (!options.dataDir) {
    options.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-sim-'));
  }
  options.dataDir = path.resolve(options.dataDir);
  validate(options);
  return options;
}

function validate(options: SimOptions): void {
  const weights = options.canaryWeights;
  if (weights.length === 0 || weights.some(w => !(w > 0 && w < 100))) {
    throw new Error(
      `canaryWeights must be a non-empty list of weights between 1 and 99, got ${JSON.stringify(weights)}`,
    );
  }
  for (const key of [
    'reconcileIntervalMs',
    'syncDelayMs',
    'canaryStepMs',
    'rateLimit',
  ] as const) {
    if (!Number.isFinite(options[key]) || options[key] < 0) {
      throw new Error(
        `${key} must be a non-negative number, got ${options[key]}`,
      );
    }
  }
  if (options.reconcileIntervalMs < 1) {
    throw new Error('reconcileIntervalMs must be at least 1');
  }
}
