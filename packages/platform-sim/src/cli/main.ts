#!/usr/bin/env node
import { startPlatformSim } from '../sim';
import { startDockerRegistry } from '../registry/dockerRegistry';
import { ApplicationSourceShape, ArgocdVersion, SimOptions } from '../options';
import { flagOrEnv, parseArgs, switchOrEnv, toNumber } from './args';
import type { ImageNaming } from '../seed/digests';

const USAGE = `usage: platform-sim [options]
  --port N                 (PLATFORM_SIM_PORT, default 7070; 0 = any free port)
  --data-dir DIR           (PLATFORM_SIM_DATA_DIR, default: a fresh temp dir; reused when it holds a repo)
  --owner NAME --repo NAME (default refplat/platform)
  --reconcile-interval-ms N (PLATFORM_SIM_RECONCILE_INTERVAL_MS, default 500)
  --sync-delay-ms N        (PLATFORM_SIM_SYNC_DELAY_MS, default 1000)
  --canary-step-ms N       (PLATFORM_SIM_CANARY_STEP_MS, default 3000)
  --canary-weights 10,25,50 (PLATFORM_SIM_CANARY_WEIGHTS)
  --bad-digests d1,d2      (PLATFORM_SIM_BAD_DIGESTS)
  --rate-limit N           (PLATFORM_SIM_RATE_LIMIT, default 5000 per hour)
  --write-limits M/H       (PLATFORM_SIM_WRITE_LIMITS; GitHub's secondary limit on writes per identity,
                           e.g. 80/500, GitHub's own: M a minute, H an hour; default unlimited)
  --delete-branch-on-merge (PLATFORM_SIM_DELETE_BRANCH_ON_MERGE=true; the platform repo's "Automatically
                           delete head branches": GitHub deletes a merged PR's branch itself)
  --required-status-checks A,B (PLATFORM_SIM_REQUIRED_STATUS_CHECKS; main's branch protection: a merge
                           needs each context's status on the head to be success)
  --tree-entry-limit N     (PLATFORM_SIM_TREE_ENTRY_LIMIT, default 100000; larger trees answer truncated)
  --argocd-version 2|3     (PLATFORM_SIM_ARGOCD_VERSION; 3 keeps resource health in the resource tree)
  --application-source app-repo|platform-repo|multi-source (PLATFORM_SIM_APPLICATION_SOURCE)
  --image-naming seeds|team-service (PLATFORM_SIM_IMAGE_NAMING; default seeds:
                           registry.refplat.org/team-alpha/shop-storefront; team-service: registry.refplat.org/alpha/storefront)
  --no-seed                (PLATFORM_SIM_SEED=false)
  --demo-products          (PLATFORM_SIM_DEMO_PRODUCTS=true; seeds alpha/blog as well, the demo's
                           Product that climbs by hand only)
  --webhook-url URL --webhook-secret S (PLATFORM_SIM_WEBHOOK_URL/_SECRET; e.g.
                           http://localhost:7007/api/events/http/github: signed GitHub webhooks)
  --incidents-url URL      (PLATFORM_SIM_INCIDENTS_URL; where incidents opened with sim:incident are
                           reported, e.g. http://localhost:7007/api/events/http/promotions.incidents)
  --registry-url URL       (PLATFORM_SIM_REGISTRY_URL; an OCI registry, e.g. Debian's docker-registry on
                           http://127.0.0.1:5000: CI pushes publish real builds there, signed by a local
                           Sigstore whose trusted root is served at /sigstore/trusted_root.json; every
                           seeded digest is such a build too)
  --registry-port N        (PLATFORM_SIM_REGISTRY_PORT; starts Debian's docker-registry on 127.0.0.1:N itself
                           and uses it as --registry-url does: the demo's registry)`;

const BOOLEAN_FLAGS = ['no-seed', 'demo-products', 'delete-branch-on-merge', 'help'];

/** Options from flags and PLATFORM_SIM_* environment variables. */
export function optionsFromArgs(argv: string[]): Partial<SimOptions> {
  const args = parseArgs(argv, BOOLEAN_FLAGS);
  if (args.flags.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const list = (value: string | undefined) =>
    value
      ?.split(',')
      .map(item => item.trim())
      .filter(Boolean);
  const webhookUrl = flagOrEnv(args, 'webhook-url', 'PLATFORM_SIM_WEBHOOK_URL');
  const webhookSecret = flagOrEnv(args, 'webhook-secret', 'PLATFORM_SIM_WEBHOOK_SECRET');
  if (Boolean(webhookUrl) !== Boolean(webhookSecret)) {
    throw new Error('--webhook-url and --webhook-secret go together');
  }
  const registryPort = toNumber(flagOrEnv(args, 'registry-port', 'PLATFORM_SIM_REGISTRY_PORT'), 'registry-port');
  if (registryPort !== undefined && flagOrEnv(args, 'registry-url', 'PLATFORM_SIM_REGISTRY_URL')) {
    throw new Error('--registry-url names a registry, --registry-port starts one: give one of them');
  }
  const registryUrl =
    registryPort !== undefined ? `http://127.0.0.1:${registryPort}` : flagOrEnv(args, 'registry-url', 'PLATFORM_SIM_REGISTRY_URL');
  const weights = list(
    flagOrEnv(args, 'canary-weights', 'PLATFORM_SIM_CANARY_WEIGHTS'),
  )?.map(Number);
  return {
    port:
      toNumber(flagOrEnv(args, 'port', 'PLATFORM_SIM_PORT'), 'port') ?? 7070,
    dataDir: flagOrEnv(args, 'data-dir', 'PLATFORM_SIM_DATA_DIR'),
    owner: flagOrEnv(args, 'owner', 'PLATFORM_SIM_OWNER'),
    repo: flagOrEnv(args, 'repo', 'PLATFORM_SIM_REPO'),
    reconcileIntervalMs: toNumber(
      flagOrEnv(
        args,
        'reconcile-interval-ms',
        'PLATFORM_SIM_RECONCILE_INTERVAL_MS',
      ),
      'reconcile-interval-ms',
    ),
    syncDelayMs: toNumber(
      flagOrEnv(args, 'sync-delay-ms', 'PLATFORM_SIM_SYNC_DELAY_MS'),
      'sync-delay-ms',
    ),
    canaryStepMs: toNumber(
      flagOrEnv(args, 'canary-step-ms', 'PLATFORM_SIM_CANARY_STEP_MS'),
      'canary-step-ms',
    ),
    canaryWeights: weights,
    badDigests: list(
      flagOrEnv(args, 'bad-digests', 'PLATFORM_SIM_BAD_DIGESTS'),
    ),
    rateLimit: toNumber(
      flagOrEnv(args, 'rate-limit', 'PLATFORM_SIM_RATE_LIMIT'),
      'rate-limit',
    ),
    writeLimits: writeLimitsFrom(flagOrEnv(args, 'write-limits', 'PLATFORM_SIM_WRITE_LIMITS')),
    treeEntryLimit: toNumber(
      flagOrEnv(args, 'tree-entry-limit', 'PLATFORM_SIM_TREE_ENTRY_LIMIT'),
      'tree-entry-limit',
    ),
    // resolveOptions validates both against their allowed values.
    argocdVersion: flagOrEnv(
      args,
      'argocd-version',
      'PLATFORM_SIM_ARGOCD_VERSION',
    ) as ArgocdVersion | undefined,
    applicationSource: flagOrEnv(
      args,
      'application-source',
      'PLATFORM_SIM_APPLICATION_SOURCE',
    ) as ApplicationSourceShape | undefined,
    imageNaming: flagOrEnv(args, 'image-naming', 'PLATFORM_SIM_IMAGE_NAMING') as
      | ImageNaming
      | undefined,
    incidentsUrl: flagOrEnv(args, 'incidents-url', 'PLATFORM_SIM_INCIDENTS_URL'),
    webhooks:
      webhookUrl && webhookSecret ? { url: webhookUrl, secret: webhookSecret } : undefined,
    registry: registryUrl ? { url: registryUrl } : undefined,
    // The demo's registry holds the whole seed, so that provenance verifies it.
    seedBuilds: registryUrl ? true : undefined,
    deleteBranchOnMerge: switchOrEnv(args, 'delete-branch-on-merge', 'PLATFORM_SIM_DELETE_BRANCH_ON_MERGE'),
    requiredStatusChecks: list(flagOrEnv(args, 'required-status-checks', 'PLATFORM_SIM_REQUIRED_STATUS_CHECKS')),
    demoProducts: switchOrEnv(args, 'demo-products', 'PLATFORM_SIM_DEMO_PRODUCTS'),
    seed:
      args.flags['no-seed'] || process.env.PLATFORM_SIM_SEED === 'false'
        ? false
        : undefined,
  };
}

/** `80/500`: writes a minute and an hour (--write-limits). */
function writeLimitsFrom(value: string | undefined): SimOptions['writeLimits'] {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!match) throw new Error(`--write-limits takes writes a minute/an hour, e.g. 80/500, got ${value}`);
  return { perMinute: Number(match[1]), perHour: Number(match[2]) };
}

/** The port of the docker-registry to start (--registry-port), if any. */
export function registryPortFromArgs(argv: string[]): number | undefined {
  return toNumber(flagOrEnv(parseArgs(argv, BOOLEAN_FLAGS), 'registry-port', 'PLATFORM_SIM_REGISTRY_PORT'), 'registry-port');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = optionsFromArgs(argv);
  const registryPort = registryPortFromArgs(argv);
  const registry = registryPort !== undefined ? await startDockerRegistry({ port: registryPort }) : undefined;
  const sim = await startPlatformSim(options).catch(async error => {
    await registry?.stop();
    throw error;
  });
  console.log(`platform-sim listening on ${sim.url}`);
  if (sim.registry) {
    console.log(`CI pushes publish signed builds to ${sim.registry.url}; trusted root at ${sim.registry.trustedRootUrl}`);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    sim
      .stop()
      .then(() => registry?.stop())
      .then(
        () => process.exit(0),
        error => {
          console.error(`platform-sim failed to stop after ${signal}:`, error);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (require.main === module) {
  main().catch(error => {
    console.error(
      'platform-sim failed to start:',
      error instanceof Error ? error.message : error,
    );
    process.exit(1);
  });
}
