import type { Rollout } from '../argo/types';
import { loadFixture } from '../__testUtils__/fixtures';
import {
  evaluateServiceHealth,
  HealthVerdict,
  ServiceHealthCheckId,
  ServiceHealthInput,
} from './serviceHealth';
import {
  SERVICE,
  RELEASED,
  OLD,
  SHA,
  image,
  EVERY_CHECK,
  syntheticApp,
  rolloutEntry,
  appIn,
  input,
  failing,
} from './__testUtils__/serviceHealthInput';

interface Case {
  name: string;
  input: () => ServiceHealthInput;
  verdict: HealthVerdict;
  reason: string | RegExp;
  failing: ServiceHealthCheckId[];
}

const cases: Case[] = [
  {
    name: 'ArgoCD unreachable',
    input: () =>
      input({
        application: undefined,
        applicationLookupError: 'connect ECONNREFUSED 10.0.0.1:443',
      }),
    verdict: 'unknown',
    reason: 'ArgoCD unreachable: connect ECONNREFUSED 10.0.0.1:443',
    failing: EVERY_CHECK,
  },
  {
    name: "ArgoCD refusing the plugin's token",
    input: () =>
      input({
        application: undefined,
        applicationLookupError:
          "argocd 'default' rejected the token (HTTP 401 from https://argocd.example: Unauthenticated): set promotions.argocd.token to a valid ArgoCD API token; asked again in 30 s",
      }),
    verdict: 'unknown',
    reason: /^ArgoCD refused the plugin: argocd 'default' rejected the token \(HTTP 401/,
    failing: EVERY_CHECK,
  },
  {
    name: 'Application missing',
    input: () =>
      input({ application: undefined, applicationName: 'alpha-shop-test' }),
    verdict: 'unknown',
    reason:
      'Application alpha-shop-test not found: the ApplicationSet has not generated it',
    failing: EVERY_CHECK,
  },
  {
    name: 'synthetic: OutOfSync right after a Release change, the old digest still running',
    input: () =>
      input({
        application: syntheticApp(a => {
          a.status.sync.status = 'OutOfSync';
          rolloutEntry(a).status = 'OutOfSync';
          a.status.summary.images = [image(OLD)];
        }),
      }),
    verdict: 'progressing',
    reason: 'ArgoCD has not synced the new Release yet (OutOfSync)',
    failing: ['sync', 'image'],
  },
  {
    name: 'synthetic: synced revision does not carry the Release yet',
    input: () =>
      input({
        platformRevisionCarriesRelease: { [SHA]: false },
        application: syntheticApp(
          a => (a.status.summary.images = [image(OLD)]),
        ),
      }),
    verdict: 'progressing',
    reason:
      'Platform repo source: ArgoCD is synced to revision 1f2e3d4, which does not carry the current Release yet',
    failing: ['revision', 'image'],
  },
  {
    name: 'synthetic: the synced platform revision could not be read',
    input: () => input({ platformRevisionCarriesRelease: {} }),
    verdict: 'unknown',
    reason:
      'Platform repo source: could not read revision 1f2e3d4 of the platform repo to compare its Release file',
    failing: ['revision'],
  },
  {
    name: "synthetic: stale reconciledAt (before the last sync finished) while the service's canary runs",
    input: () =>
      input({
        application: syntheticApp(a => {
          a.status.reconciledAt = '2024-03-05T07:33:00Z';
          a.status.summary.images = [image(OLD), image(RELEASED)];
          rolloutEntry(a).health = { status: 'Progressing' };
        }),
      }),
    verdict: 'progressing',
    reason:
      'ArgoCD has not refreshed the live state since the last sync finished (reconciled 2024-03-05T07:33:00.000Z, sync finished 2024-03-05T07:33:04.000Z)',
    failing: ['reconciled', 'rollout'],
  },
  {
    name: 'synthetic: Synced + Healthy Application running the wrong digest',
    input: () =>
      input({
        application: syntheticApp(
          a => (a.status.summary.images = [image(OLD), 'nginx:latest']),
        ),
      }),
    verdict: 'unhealthy',
    reason:
      'Running sha256:aaaabbbbbbbb… but the Release names sha256:ddddeeeeeeee…',
    failing: ['image'],
  },
  {
    name: 'synthetic: service not in summary.images',
    input: () =>
      input({
        application: syntheticApp(
          a => (a.status.summary.images = ['nginx:latest']),
        ),
      }),
    verdict: 'unhealthy',
    reason: 'storefront is not among the running images (nginx:latest)',
    failing: ['image'],
  },
  {
    name: 'synthetic: the service runs by tag, not by digest',
    input: () =>
      input({
        application: syntheticApp(
          a =>
            (a.status.summary.images = [
              'ghcr.io/alpha/shop/storefront:latest',
            ]),
        ),
      }),
    verdict: 'unhealthy',
    reason:
      'Running ghcr.io/alpha/shop/storefront:latest (no digest) but the Release names sha256:ddddeeeeeeee…',
    failing: ['image'],
  },
  {
    name: 'synthetic: not released to this stage (no digest in the Release record)',
    input: () => input({ releasedDigest: undefined }),
    verdict: 'unknown',
    reason:
      'storefront is not released to this stage: the Release record names no digest for it',
    failing: ['image'],
  },
  {
    name: 'synthetic: paused canary seen through status.resources (Rollout Suspended, app Suspended)',
    input: () =>
      input({
        application: appIn(
          'Suspended',
          [image(OLD), image(RELEASED)],
          'CanaryPauseStep',
        ),
      }),
    verdict: 'progressing',
    reason: 'Rollout storefront is paused: CanaryPauseStep',
    failing: ['app-health', 'rollout'],
  },
  {
    name: 'synthetic: paused canary with the live Rollout (suspended_v1.0_pausedRollout)',
    input: () =>
      input({
        now: new Date('2021-07-15T21:38:55Z'),
        rollout: loadFixture<Rollout>('rollout-canary-paused-phase.yaml'),
        application: appIn(
          'Suspended',
          [image(OLD), image(RELEASED)],
          'CanaryPauseStep',
        ),
      }),
    verdict: 'progressing',
    reason:
      'Canary paused (CanaryPauseStep) at step 1 of 8, 21% of traffic, for 30m; waits for a manual promote',
    failing: ['app-health', 'rollout'],
  },
  {
    name: 'synthetic: canary in progress with the live Rollout (progressing_setWeightStep)',
    input: () =>
      input({
        rollout: loadFixture<Rollout>(
          'rollout-canary-progressing-setweight.yaml',
        ),
        application: appIn('Progressing', [image(OLD), image(RELEASED)]),
      }),
    verdict: 'progressing',
    reason: 'Canary in progress: step 3 of 4, 40% of traffic',
    failing: ['app-health', 'rollout'],
  },
  {
    name: 'synthetic: Degraded aborted Rollout (live degraded_abortedRollout)',
    input: () =>
      input({
        rollout: loadFixture<Rollout>('rollout-canary-degraded-aborted.yaml'),
        application: appIn('Degraded', [image(OLD)], 'Rollout is aborted'),
      }),
    verdict: 'unhealthy',
    reason: 'Rollout storefront was aborted: Rollout is aborted',
    failing: ['app-health', 'rollout', 'image'],
  },
  {
    name: 'synthetic: Degraded aborted Rollout seen through status.resources',
    input: () =>
      input({
        application: appIn('Degraded', [image(OLD)], 'Rollout is aborted'),
      }),
    verdict: 'unhealthy',
    reason: 'Rollout storefront is Degraded: Rollout is aborted',
    failing: ['app-health', 'rollout', 'image'],
  },
  {
    name: 'synthetic: canary complete but the old digest still runs beside the released one',
    input: () =>
      input({
        rollout: loadFixture<Rollout>('rollout-canary-healthy-completed.yaml'),
        application: syntheticApp(
          a => (a.status.summary.images = [image(RELEASED), image(OLD)]),
        ),
      }),
    verdict: 'progressing',
    reason:
      'The rollout is complete but sha256:aaaabbbbbbbb… still runs beside the released sha256:ddddeeeeeeee…',
    failing: ['image'],
  },
  {
    name: 'synthetic: no Rollout entry for the service in a Synced Application',
    input: () =>
      input({
        application: syntheticApp(a => {
          a.status.resources = a.status.resources.filter(
            (r: any) => r.kind !== 'Rollout',
          );
        }),
      }),
    verdict: 'unhealthy',
    reason: 'No Rollout named storefront in Application alpha-shop-test',
    failing: ['rollout'],
  },
  {
    name: 'synthetic: Rollout Missing from the cluster while Synced',
    input: () =>
      input({
        application: syntheticApp(
          a => (rolloutEntry(a).health = { status: 'Missing' }),
        ),
      }),
    verdict: 'unhealthy',
    reason:
      'Rollout storefront is Missing: it is in git but not in the cluster',
    failing: ['rollout'],
  },
  {
    name: 'synthetic: resource health only in the resource tree (resourceHealthSource appTree)',
    input: () =>
      input({
        application: syntheticApp(a => {
          a.status.resourceHealthSource = 'appTree';
          for (const r of a.status.resources) delete r.health;
        }),
      }),
    verdict: 'unknown',
    reason:
      'The health of Rollout storefront is only in the resource tree (resourceHealthSource: appTree)',
    failing: ['rollout'],
  },
  {
    name: "synthetic: sync operation Running for the service's own new digest",
    input: () =>
      input({
        application: syntheticApp(a => {
          a.status.operationState.phase = 'Running';
          a.status.operationState.message =
            'waiting for healthy state of argoproj.io/Rollout/storefront';
          delete a.status.operationState.finishedAt;
          a.status.summary.images = [image(OLD)];
          rolloutEntry(a).health = { status: 'Progressing' };
        }),
      }),
    verdict: 'progressing',
    reason:
      'ArgoCD sync operation is Running (started 2024-03-05T07:33:03.000Z): waiting for healthy state of argoproj.io/Rollout/storefront',
    failing: ['sync', 'rollout', 'image'],
  },
  {
    name: 'synthetic: last sync operation Failed',
    input: () =>
      input({
        application: syntheticApp(a => {
          a.status.sync.status = 'OutOfSync';
          a.status.operationState.phase = 'Failed';
          a.status.operationState.message =
            'one or more objects failed to apply';
        }),
      }),
    verdict: 'unhealthy',
    reason:
      "ArgoCD's last sync failed (sync status OutOfSync): one or more objects failed to apply",
    failing: ['sync'],
  },
  {
    name: 'synthetic: Application health Missing while Synced, no Rollout health known',
    input: () =>
      input({
        application: syntheticApp(a => {
          a.status.health = { status: 'Missing' };
          delete rolloutEntry(a).health;
        }),
      }),
    verdict: 'unhealthy',
    reason:
      'Application alpha-shop-test is Missing: resources in git are not in the cluster',
    failing: ['app-health', 'rollout'],
  },
  {
    name: 'synthetic: sync status Unknown (comparison error)',
    input: () =>
      input({
        application: syntheticApp(a => {
          a.status.sync.status = 'Unknown';
          a.status.conditions = [
            { type: 'ComparisonError', message: 'repository not accessible' },
          ];
        }),
      }),
    verdict: 'unknown',
    reason:
      'ArgoCD could not compare the Application with git (sync status Unknown): repository not accessible',
    failing: ['sync'],
  },
];

/** A case's reason: that text exactly, or any text the pattern matches. */
function reasonLike(reason: string | RegExp) {
  return typeof reason === 'string' ? reason : expect.stringMatching(reason);
}

describe('evaluateServiceHealth: table of health rules', () => {
  it.each(cases.map(c => [c.name, c] as const))('%s', (_name, c) => {
    const health = evaluateServiceHealth(SERVICE, c.input());
    expect(health.verdict).toBe(c.verdict);
    expect(health.healthy).toBe(false);
    expect(health.reasons).toContainEqual(reasonLike(c.reason));
    expect(failing(health)).toEqual(c.failing);
    // Every non-ok check is a reason, except the checks not run when the Application is unknown.
    expect(health.reasons).toEqual(
      health.checks[0].ok === true
        ? health.checks.filter(x => x.ok !== true).map(x => x.detail)
        : [health.checks[0].detail],
    );
  });
});
