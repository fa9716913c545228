import type { Application } from '../../argo/types';
import { modifiedFixture } from '../../__testUtils__/fixtures';
import type {
  ServiceHealth,
  ServiceHealthCheckId,
  ServiceHealthInput,
} from '../serviceHealth';

/** The deployment every evaluateServiceHealth test starts from, and the helpers to read its result. */

export const SERVICE = 'storefront';
export const RELEASED = `sha256:${'d'.repeat(4)}${'e'.repeat(60)}`; // sha256:ddddeeee…
export const OLD = `sha256:${'a'.repeat(4)}${'b'.repeat(60)}`; // sha256:aaaabbbb…
export const SHA = '1f2e3d4c5b6a79880796a5b4c3d2e1f001122334';
export const NOW = new Date('2024-03-05T08:00:00Z');
/** The real fixture syncs this repository: here it plays the platform repo. */
export const PLATFORM_REPO = {
  host: 'github.com',
  owner: 'foo',
  repo: 'manifests-velero',
};

export const image = (digest: string) =>
  `ghcr.io/alpha/shop/${SERVICE}@${digest}`;

/**
 * A synthetic Application for `alpha-shop-test`: the real Synced+Healthy `velero-test`
 * (argocd-app-synced-healthy.yaml) with a real commit SHA as the synced revision, a Healthy
 * Rollout entry for the service in status.resources, and the released digest running.
 */
export function syntheticApp(
  mutate: (app: any) => void = () => {},
): Application {
  return modifiedFixture('argocd-app-synced-healthy.yaml', app => {
    app.metadata.name = 'alpha-shop-test';
    app.status.sync.revision = SHA;
    app.status.summary.images = [image(RELEASED), 'nginx:latest'];
    app.status.resources.push({
      group: 'argoproj.io',
      version: 'v1alpha1',
      kind: 'Rollout',
      namespace: 'alpha-shop-test',
      name: SERVICE,
      status: 'Synced',
      health: { status: 'Healthy' },
    });
    mutate(app);
  });
}

export function rolloutEntry(app: any) {
  return app.status.resources.find((r: any) => r.kind === 'Rollout');
}

/**
 * The synthetic Application, itself and its Rollout entry of health `status`
 * (the entry with `message` when given), running `images`.
 */
export function appIn(
  status: string,
  images: string[],
  message?: string,
): Application {
  return syntheticApp(a => {
    a.status.health = { status };
    rolloutEntry(a).health =
      message === undefined ? { status } : { status, message };
    a.status.summary.images = images;
  });
}

/** Every check, in the order evaluateServiceHealth gives them. */
export const EVERY_CHECK: ServiceHealthCheckId[] = [
  'application',
  'sync',
  'revision',
  'reconciled',
  'app-health',
  'rollout',
  'image',
];

export function input(
  overrides: Partial<ServiceHealthInput> = {},
): ServiceHealthInput {
  return {
    releasedDigest: RELEASED,
    application: syntheticApp(),
    platformRepo: PLATFORM_REPO,
    platformRevisionCarriesRelease: { [SHA]: true },
    now: NOW,
    ...overrides,
  };
}

export function failing(health: ServiceHealth): ServiceHealthCheckId[] {
  return health.checks.filter(c => c.ok !== true).map(c => c.id);
}
