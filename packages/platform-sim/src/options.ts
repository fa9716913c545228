import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import type { WebhookTarget } from './webhooks/webhookSender';
import { IMAGE_NAMINGS, ImageNaming } from './seed/digests';
import type { SigstoreAuthority } from './registry/sigstoreAuthority';
import type { WriteLimits } from './github/secondaryWriteLimit';

/** Which Argo CD the API imitates: 2.14 keeps resource health inline, 3.x in the resource tree. */
export type ArgocdVersion = '2' | '3';

/**
 * What an Application syncs. `app-repo`: the Product's app repo (`k8s/overlays/<stage>`), with
 * the Release digests injected as kustomize images by the ApplicationSet (the seeds' platform).
 * `platform-repo`: the platform repo's Release file itself. `multi-source`: `spec.sources` with
 * the app repo and the platform repo as a `ref: values` source.
 */
export type ApplicationSourceShape =
  'app-repo' | 'platform-repo' | 'multi-source';

export const ARGOCD_VERSIONS: readonly ArgocdVersion[] = ['2', '3'];
export const APPLICATION_SOURCE_SHAPES: readonly ApplicationSourceShape[] = [
  'app-repo',
  'platform-repo',
  'multi-source',
];

export interface PlatformShape {
  argocdVersion: ArgocdVersion;
  applicationSource: ApplicationSourceShape;
}

/** The platform the seeds describe: Argo CD 3.x, Applications syncing per-Product app repos. */
export const SEEDS_PLATFORM: Readonly<PlatformShape> = {
  argocdVersion: '3',
  applicationSource: 'app-repo',
};

/** The simulator's first shape: Argo CD 2.14 with inline health, Applications syncing the platform repo. */
export const PLATFORM_REPO_PLATFORM: Readonly<PlatformShape> = {
  argocdVersion: '2',
  applicationSource: 'platform-repo',
};

/**
 * The shape a simulator gets when none is asked for: the seeds' platform (app repos, ArgoCD 3),
 * what new installs run. Tests that need the platform-repo shape ask for it.
 */
export const DEFAULT_PLATFORM: Readonly<PlatformShape> = SEEDS_PLATFORM;

/** GitHub truncates a recursive tree beyond 100,000 entries (or 7 MB). */
export const GITHUB_TREE_ENTRY_LIMIT = 100_000;

/** Everything that can be tuned when starting the simulator. */
export interface SimOptions extends PlatformShape {
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
  /**
   * Seed the demo's own Products too (alpha/blog, promoted by hand only):
   * `npm start` asks for them; tests that count the seed's Products do not.
   */
  demoProducts: boolean;
  /** Entries of a git tree GitHub returns before it answers `truncated: true`. */
  treeEntryLimit: number;
  /**
   * How images are named: `seeds` (`registry.refplat.org/team-alpha/shop-storefront`, the
   * default) or `team-service` (`registry.refplat.org/alpha/storefront`, the simulator's first form).
   */
  imageNaming: ImageNaming;
  /**
   * The platform repo's webhook: pushes, pull requests closed or reopened and commit
   * statuses are POSTed there, signed with the secret (also settable later, see RunningSim.webhooks).
   */
  webhooks?: WebhookTarget;
  /**
   * Where the simulated incident tool reports incidents opening and resolving,
   * `{product, id, state, url}` as JSON (also settable later, see RunningSim.incidents), e.g.
   * http://localhost:7007/api/events/http/promotions.incidents.
   */
  incidentsUrl?: string;
  /**
   * The OCI registry CI pushes to (issue 25). With it, a CI push without a digest
   * publishes a real build there (the image, its signature by the build-sign workflow,
   * SLSA provenance by the provenance workflow, or what the push's flags break) and
   * writes that build's digest; the simulator serves the trusted root at
   * /sigstore/trusted_root.json. Without it, CI pushes write random digests, as before.
   */
  registry?: { url: string };
  /** The Sigstore that signs those builds; with a registry and none given, the simulator starts a local one. */
  sigstore?: SigstoreAuthority;
  /**
   * With `registry`: every seeded digest is a real build, published there
   * signed and attested like a CI push's, so that provenance verifies the
   * seed too (the demo runs `promotions.provenance` in enforce). Without
   * it, seeded digests are sha256 of `<team>/<product>/<service>:v<n>` and
   * were never pushed.
   */
  seedBuilds?: boolean;
  /**
   * GitHub's secondary limit on content-generating requests (every request but GET and HEAD),
   * per identity in sliding windows: a write over it answers 403 with `retry-after`, as
   * GitHub does. GitHub's own figures are GITHUB_WRITE_LIMITS (80 a minute, 500 an hour).
   * Unlimited when absent: a long test run writes more than an hour's budget on purpose.
   */
  writeLimits?: WriteLimits;
  /**
   * The platform repo's "Automatically delete head branches" setting
   * (`delete_branch_on_merge`): GitHub deletes a merged PR's head branch itself.
   * Off unless asked, as on a new GitHub repository.
   */
  deleteBranchOnMerge?: boolean;
  /**
   * The status contexts the platform repo's base branch requires before a merge (its branch
   * protection's required status checks): `GET …/branches/main` shows them, and a merge whose
   * head lacks a success for one answers 405 `Required status check "…" is expected.`, as
   * GitHub does. None unless asked, as on a new GitHub repository.
   */
  requiredStatusChecks?: string[];
  /**
   * Which Products have their ApplicationSet in the simulated cluster (the seeds: one per
   * Product, a git-files generator over its Release records). Every Product's when absent. A
   * Product without one has Release records and no Applications, as a Product whose Argo CD
   * runs elsewhere; the scale bench gives one to the climbing Products only, so that the
   * simulator does not run 50,000 Applications beside the plugin.
   */
  hasApplicationSet?: (product: { team: string; product: string }) => boolean;
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
    demoProducts: false,
    treeEntryLimit: GITHUB_TREE_ENTRY_LIMIT,
    imageNaming: 'seeds',
    ...DEFAULT_PLATFORM,
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
  if (options.seedBuilds && !options.registry) {
    throw new Error('seedBuilds needs a registry to publish the seeded builds to');
  }
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
    'treeEntryLimit',
  ] as const) {
    if (!Number.isFinite(options[key]) || options[key] < 0) {
      throw new Error(
        `${key} must be a non-negative number, got ${options[key]}`,
      );
    }
  }
  if (options.writeLimits) {
    const { perMinute, perHour } = options.writeLimits;
    if (!(perMinute >= 1 && perHour >= 1)) {
      throw new Error(`writeLimits needs perMinute and perHour of at least 1, got ${JSON.stringify(options.writeLimits)}`);
    }
  }
  if (options.reconcileIntervalMs < 1) {
    throw new Error('reconcileIntervalMs must be at least 1');
  }
  if (options.treeEntryLimit < 1) {
    throw new Error('treeEntryLimit must be at least 1');
  }
  if (!ARGOCD_VERSIONS.includes(options.argocdVersion)) {
    throw new Error(
      `argocdVersion must be one of ${ARGOCD_VERSIONS.join(', ')}, got ${options.argocdVersion}`,
    );
  }
  if (!IMAGE_NAMINGS.includes(options.imageNaming)) {
    throw new Error(`imageNaming must be one of ${IMAGE_NAMINGS.join(', ')}, got ${options.imageNaming}`);
  }
  if (options.registry && !/^https?:\/\/[^/]+\/?$/.test(options.registry.url)) {
    throw new Error(`registry.url must be a registry's base URL (http://host:port), got ${options.registry.url}`);
  }
  if (!APPLICATION_SOURCE_SHAPES.includes(options.applicationSource)) {
    throw new Error(
      `applicationSource must be one of ${APPLICATION_SOURCE_SHAPES.join(', ')}, got ${options.applicationSource}`,
    );
  }
}
