import type { Application, ResourceNode, Rollout } from '../argo/types';
import { loadFixture, modifiedFixture } from '../__testUtils__/fixtures';
import { withResourceTreeHealth } from '../argo/resourceTree';
import {
  evaluateServiceHealth,
  evaluateStageHealth,
  HealthVerdict,
  ServiceHealth,
  ServiceHealthCheckId,
  ServiceHealthInput,
  worstVerdict,
} from './serviceHealth';

const SERVICE = 'storefront';
const RELEASED = `sha256:${'d'.repeat(4)}${'e'.repeat(60)}`; // sha256:ddddeeee…
const OLD = `sha256:${'a'.repeat(4)}${'b'.repeat(60)}`; // sha256:aaaabbbb…
const SHA = '1f2e3d4c5b6a79880796a5b4c3d2e1f001122334';
const NOW = new Date('2024-03-05T08:00:00Z');
/** The real fixture syncs this repository: here it plays the platform repo. */
const PLATFORM_REPO = { host: 'github.com', owner: 'foo', repo: 'manifests-velero' };

const image = (digest: string) => `ghcr.io/alpha/shop/${SERVICE}@${digest}`;

/**
 * A synthetic Application for `alpha-shop-test`: the real Synced+Healthy `velero-test`
 * (argocd-app-synced-healthy.yaml) with a real commit SHA as the synced revision, a Healthy
 * Rollout entry for the service in status.resources, and the released digest running.
 */
function syntheticApp(mutate: (app: any) => void = () => {}): Application {
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

function rolloutEntry(app: any) {
  return app.status.resources.find((r: any) => r.kind === 'Rollout');
}

/**
 * The synthetic Application, itself and its Rollout entry of health `status`
 * (the entry with `message` when given), running `images`.
 */
function appIn(status: string, images: string[], message?: string): Application {
  return syntheticApp(a => {
    a.status.health = { status };
    rolloutEntry(a).health = message === undefined ? { status } : { status, message };
    a.status.summary.images = images;
  });
}

/** Every check, in the order evaluateServiceHealth gives them. */
const EVERY_CHECK: ServiceHealthCheckId[] = [
  'application',
  'sync',
  'revision',
  'reconciled',
  'app-health',
  'rollout',
  'image',
];

function input(
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

function failing(health: ServiceHealth): ServiceHealthCheckId[] {
  return health.checks.filter(c => c.ok !== true).map(c => c.id);
}

describe('evaluateServiceHealth: the all-good case', () => {
  it('synthetic: Synced, carries the Release, reconciled, Healthy app and Rollout, released digest running → healthy', () => {
    const health = evaluateServiceHealth(SERVICE, input());
    expect(health.verdict).toBe('healthy');
    expect(health.healthy).toBe(true);
    expect(health.reasons).toEqual([]);
    expect(health.checks.map(c => [c.id, c.ok])).toEqual(
      EVERY_CHECK.map(id => [id, true]),
    );
    expect(health.runningDigests).toEqual([RELEASED]);
    expect(health.rolloutHealth).toEqual({ status: 'Healthy' });
    expect(health.canary).toBeUndefined();
  });

  it('synthetic: with the live completed Rollout (healthy_executedAllSteps) → healthy, canary complete', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        rollout: loadFixture<Rollout>('rollout-canary-healthy-completed.yaml'),
      }),
    );
    expect(health.verdict).toBe('healthy');
    expect(health.canary).toMatchObject({
      complete: true,
      weight: 100,
      phase: 'Healthy',
    });
    expect(health.checks.find(c => c.id === 'rollout')!.detail).toBe(
      'Canary complete: all 4 steps done',
    );
  });

  it('synthetic: timestamps parsed as Date objects (YAML 1.1) → healthy', () => {
    const app = loadFixture<any>('argocd-app-synced-healthy.yaml', 'yaml-1.1');
    const base: any = syntheticApp();
    base.status.reconciledAt = new Date(String(app.status.reconciledAt));
    base.status.operationState.finishedAt = new Date(
      String(app.status.operationState.finishedAt),
    );
    expect(
      evaluateServiceHealth(SERVICE, input({ application: base })).verdict,
    ).toBe('healthy');
  });
});

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
        rollout: loadFixture<Rollout>('rollout-canary-progressing-setweight.yaml'),
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

/**
 * A neighbour's change or failure seen at the Application level, while storefront's own Rollout is
 * Healthy, its Release applied and only its released digest running: storefront stays healthy.
 */
const neighbourCases: { name: string; mutate: (app: any) => void }[] = [
  {
    name: "Application Degraded by cart's aborted canary",
    mutate: a => {
      a.status.health = { status: 'Degraded', message: 'Rollout is aborted' };
      a.status.resources.push({ ...rolloutEntry(a), name: 'cart', health: { status: 'Degraded' } });
    },
  },
  {
    name: "Application Progressing while cart's canary runs",
    mutate: a => {
      a.status.health = { status: 'Progressing' };
      a.status.resources.push({ ...rolloutEntry(a), name: 'cart', health: { status: 'Progressing' } });
    },
  },
  {
    name: "Application OutOfSync because cart's digest changed",
    mutate: a => {
      a.status.sync.status = 'OutOfSync';
      a.status.resources.push({ ...rolloutEntry(a), name: 'cart', status: 'OutOfSync' });
    },
  },
  {
    name: "sync operation Running for cart's new digest",
    mutate: a => {
      a.status.operationState.phase = 'Running';
      a.status.operationState.message = 'waiting for healthy state of argoproj.io/Rollout/cart';
      delete a.status.operationState.finishedAt;
    },
  },
  {
    name: "not refreshed since cart's sync finished",
    mutate: a => (a.status.reconciledAt = '2024-03-05T07:33:00Z'),
  },
];

describe('evaluateServiceHealth: each service tells its own truth', () => {
  it.each(neighbourCases.map(c => [c.name, c] as const))('%s → storefront healthy', (_name, c) => {
    const health = evaluateServiceHealth(SERVICE, input({ application: syntheticApp(c.mutate) }));
    expect(health.reasons).toEqual([]);
    expect(health.verdict).toBe('healthy');
  });

  it.each(neighbourCases.map(c => [c.name, c] as const))(
    '%s, storefront still running its previous digest → not healthy',
    (_name, c) => {
      const health = evaluateServiceHealth(
        SERVICE,
        input({
          application: syntheticApp(a => {
            c.mutate(a);
            a.status.summary.images = [image(OLD)];
          }),
        }),
      );
      expect(health.healthy).toBe(false);
      expect(failing(health)).toContain('image');
    },
  );

  it("an OutOfSync Application whose OutOfSync resource is this service's Rollout holds it back", () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: syntheticApp(a => {
          a.status.sync.status = 'OutOfSync';
          rolloutEntry(a).status = 'OutOfSync';
        }),
      }),
    );
    expect(health.verdict).toBe('progressing');
    expect(failing(health)).toEqual(['sync']);
  });

  it("an OutOfSync Application that no other service's Rollout explains holds every service back", () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({ application: syntheticApp(a => (a.status.sync.status = 'OutOfSync')) }),
    );
    expect(health.verdict).toBe('progressing');
    expect(failing(health)).toEqual(['sync']);
  });

  it("an Application Degraded that no other service's Rollout explains counts for every service", () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({ application: syntheticApp(a => (a.status.health = { status: 'Degraded' })) }),
    );
    expect(health.verdict).toBe('unhealthy');
    expect(failing(health)).toEqual(['app-health']);
  });

  it("the Application's health decides when the Rollout's is unknown", () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: syntheticApp(a => {
          a.status.health = { status: 'Degraded' };
          a.status.resources = a.status.resources.filter((r: any) => r.kind !== 'Rollout');
        }),
      }),
    );
    expect(health.verdict).toBe('unhealthy');
    expect(failing(health)).toEqual(['app-health', 'rollout']);
  });
});

describe('evaluateServiceHealth: specifics', () => {
  it('multi-source Application (synthetic): spec.sources and status.sync.revisions → healthy', () => {
    const app = syntheticApp(a => {
      a.spec.sources = [
        a.spec.source,
        { repoURL: 'https://github.com/foo/shared-config.git', path: 'base' },
      ];
      delete a.spec.source;
      delete a.status.sync.revision;
      a.status.sync.revisions = [
        SHA,
        '0123456789abcdef0123456789abcdef01234567',
      ];
    });
    const health = evaluateServiceHealth(SERVICE, input({ application: app }));
    expect(health.verdict).toBe('healthy');
    expect(health.checks.find(c => c.id === 'sync')!.detail).toBe(
      'Synced to 1f2e3d4',
    );
    expect(health.checks.find(c => c.id === 'revision')!.detail).toBe(
      'Multi-source Application: platform repo source #1: synced revision 1f2e3d4 carries the current Release',
    );
  });

  it('the lookup error wins over a (stale) Application object', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({ applicationLookupError: '503 Service Unavailable' }),
    );
    expect(health.verdict).toBe('unknown');
    expect(health.checks[0]).toMatchObject({
      id: 'application',
      ok: undefined,
    });
    expect(health.reasons).toEqual([
      'ArgoCD unreachable: 503 Service Unavailable',
    ]);
  });

  it('a missing Application is a failed check (ok false) but an unknown verdict', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({ application: undefined }),
    );
    expect(health.checks[0]).toMatchObject({
      id: 'application',
      ok: false,
      verdict: 'unknown',
    });
    expect(health.reasons).toEqual([
      "The stage's Application was not found: the ApplicationSet has not generated it",
    ]);
  });

  it('real OutOfSync fixture (argocd-app-outofsync-minimal): not healthy, OutOfSync named', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: loadFixture<Application>('argocd-app-outofsync-minimal.yaml'),
      }),
    );
    expect(health.healthy).toBe(false);
    expect(health.verdict).toBe('unknown'); // no health and no revision reported
    expect(health.reasons).toContain(
      'ArgoCD has not synced the new Release yet (OutOfSync)',
    );
    expect(health.checks.find(c => c.id === 'app-health')!.detail).toBe(
      'ArgoCD reports no health for Application production-test-app',
    );
    // Not yet synced: a missing Rollout or image is still in progress, not a failure.
    expect(health.checks.find(c => c.id === 'rollout')!.verdict).toBe(
      'progressing',
    );
    expect(health.checks.find(c => c.id === 'image')!.verdict).toBe(
      'progressing',
    );
  });

  it('real Degraded fixture (argocd-app-degraded-minimal): unhealthy', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: loadFixture<Application>('argocd-app-degraded-minimal.yaml'),
      }),
    );
    expect(health.verdict).toBe('unhealthy');
    expect(health.reasons).toContain('The Application is Degraded');
  });

  it('real Synced+Healthy fixture as is: no Rollout, service not running → unhealthy', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: loadFixture<Application>('argocd-app-synced-healthy.yaml'),
        platformRevisionCarriesRelease: { rev1: true },
      }),
    );
    expect(health.verdict).toBe('unhealthy');
    expect(health.reasons).toEqual([
      'No Rollout named storefront in Application velero-test',
      'storefront is not among the running images (nginx:latest)',
    ]);
  });

  it('synthetic: a Progressing Application with the wrong digest is progressing, not unhealthy', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: appIn('Progressing', [image(OLD)]),
      }),
    );
    expect(health.verdict).toBe('progressing');
    expect(health.checks.find(c => c.id === 'image')!.verdict).toBe(
      'progressing',
    );
  });

  it('synthetic: during a canary both digests may run; the image check holds', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        rollout: loadFixture<Rollout>('rollout-canary-progressing-setweight.yaml'),
        application: syntheticApp(a => {
          a.status.health = { status: 'Progressing' };
          a.status.summary.images = [image(OLD), image(RELEASED)];
        }),
      }),
    );
    expect(health.runningDigests).toEqual([OLD, RELEASED]);
    expect(health.checks.find(c => c.id === 'image')!.ok).toBe(true);
    expect(health.canary).toMatchObject({
      currentStep: 3,
      totalSteps: 4,
      weight: 40,
    });
    expect(health.rolloutHealth).toEqual({
      status: 'Progressing',
      message:
        'Waiting for roll out to finish: More replicas need to be updated',
    });
  });

  it('synthetic: the live Rollout wins over a stale status.resources health', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        rollout: loadFixture<Rollout>(
          'rollout-canary-paused-inconclusive-analysis.yaml',
        ),
      }),
    );
    expect(health.verdict).toBe('unhealthy');
    expect(health.rolloutHealth?.status).toBe('Degraded');
    expect(health.canary).toMatchObject({
      paused: true,
      pauseReason: 'InconclusiveAnalysisRun',
    });
  });

  it('another service’s image carrying the released digest counts (the same bytes), but the service’s own image at another digest keeps it from healthy', () => {
    const health = evaluateServiceHealth(
      'cart',
      input({
        application: syntheticApp(a => {
          a.status.resources.push({ ...rolloutEntry(a), name: 'cart' });
          a.status.summary.images = [
            image(RELEASED),
            `ghcr.io/alpha/shop/cart@${OLD}`,
          ];
        }),
      }),
    );
    expect(health.runningDigests).toEqual([RELEASED, OLD]);
    expect(health.verdict).toBe('progressing');
    expect(health.reasons).toEqual([expect.stringMatching(/still runs beside the released/)]);
  });

  it('finds the service’s image by the released digest whatever its name, and names what runs instead by promotions.images', () => {
    const seedsImage = (digest: string) => `registry.refplat.org/team-alpha/shop-cart@${digest}`;
    const running = (images: string[]) =>
      evaluateServiceHealth(
        'cart',
        input({
          product: { team: 'alpha', product: 'shop' },
          application: syntheticApp(a => {
            a.status.resources.push({ ...rolloutEntry(a), name: 'cart' });
            a.status.summary.images = images;
          }),
        }),
      );
    expect(running([seedsImage(RELEASED)])).toMatchObject({ verdict: 'healthy', runningDigests: [RELEASED] });
    expect(running([`mirror.example.com/builds/b-1234@${RELEASED}`])).toMatchObject({ verdict: 'healthy', runningDigests: [RELEASED] });
    const wrong = running([seedsImage(OLD), `registry.refplat.org/team-alpha/shop-storefront@${OLD}`]);
    expect(wrong).toMatchObject({ verdict: 'unhealthy', runningDigests: [OLD] });
    expect(wrong.reasons).toEqual([expect.stringMatching(/^Running .* but the Release names/)]);
  });
});

describe('evaluateServiceHealth: the seeds\' shape (app repo, digest injected) and Argo CD 3', () => {
  const APP_SHA = '0123456789abcdef0123456789abcdef01234567';
  const appRepoSource = (digest: string) => ({
    repoURL: 'https://github.com/alpha/shop-app.git',
    path: 'k8s/overlays/test',
    targetRevision: 'HEAD',
    kustomize: { images: [`ghcr.io/alpha/shop/storefront=${image(digest)}`] },
  });

  /** The synthetic Application syncing the app repo, `injected` in its spec, `compared` in comparedTo. */
  function appRepoApp(injected: string, compared = injected, mutate: (a: any) => void = () => {}) {
    return syntheticApp(a => {
      a.spec.source = appRepoSource(injected);
      a.status.sync.revision = APP_SHA;
      a.status.sync.comparedTo = { source: appRepoSource(compared), destination: a.spec.destination };
      mutate(a);
    });
  }

  /** As Argo CD 3 serves it: resource health only in the tree. */
  function argoCd3(app: Application): Application {
    const copy = structuredClone(app);
    copy.status!.resourceHealthSource = 'appTree';
    for (const resource of copy.status!.resources!) delete resource.health;
    return copy;
  }

  const rolloutNode = (status: string) => ({
    group: 'argoproj.io',
    version: 'v1alpha1',
    kind: 'Rollout',
    namespace: 'alpha-shop-test',
    name: SERVICE,
    health: { status },
  });

  it('healthy with no platform revision to look up', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({ application: appRepoApp(RELEASED), platformRevisionCarriesRelease: {} }),
    );
    expect(health.verdict).toBe('healthy');
    expect(health.checks.find(c => c.id === 'revision')!.detail).toBe(
      'App repo source: the spec injects sha256:ddddeeeeeeee… (kustomize images) for storefront and ArgoCD compared against this spec (revision 0123456)',
    );
  });

  it('right after a Release change (spec not regenerated, old digest running): progressing, never unknown', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: appRepoApp(OLD, OLD, a => (a.status.summary.images = [image(OLD)])),
        platformRevisionCarriesRelease: {},
      }),
    );
    expect(health.verdict).toBe('progressing');
    expect(failing(health)).toEqual(['revision', 'image']);
  });

  it('spec regenerated but not compared yet: progressing', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: appRepoApp(RELEASED, OLD, a => (a.status.summary.images = [image(OLD)])),
        platformRevisionCarriesRelease: {},
      }),
    );
    expect(health.verdict).toBe('progressing');
    expect(failing(health)).toEqual(['revision', 'image']);
  });

  it.each<[string, ResourceNode[], HealthVerdict, string]>([
    ['Healthy Rollout node', [rolloutNode('Healthy')], 'healthy', 'Rollout storefront is Healthy'],
    ['Suspended Rollout node (paused canary)', [rolloutNode('Suspended')], 'progressing', 'Rollout storefront is paused'],
    ['Degraded Rollout node', [rolloutNode('Degraded')], 'unhealthy', 'Rollout storefront is Degraded'],
    [
      'no node for the Rollout: as a missing Rollout',
      [],
      'unhealthy',
      'Rollout storefront is Missing: it is in git but not in the cluster',
    ],
  ])('Argo CD 3 with the resource tree overlaid, %s → %s', (_case, nodes, verdict, detail) => {
    const app = withResourceTreeHealth(argoCd3(appRepoApp(RELEASED)), nodes);
    const health = evaluateServiceHealth(
      SERVICE,
      input({ application: app, platformRevisionCarriesRelease: {} }),
    );
    expect(health.checks.find(c => c.id === 'rollout')).toMatchObject({ verdict, detail });
  });

  /** A tree node for each of `app`'s resources, Healthy unless `health` names it otherwise. */
  function treeOf(app: Application, health: Record<string, string | undefined> = {}): ResourceNode[] {
    return app.status!.resources!.map(({ group, version, kind, namespace, name = '' }) => {
      const status = name in health ? health[name] : 'Healthy';
      return { group, version, kind, namespace, name, ...(status ? { health: { status } } : {}) };
    });
  }

  describe("Argo CD 3: an Application's health that its tree, read after it, does not explain", () => {
    /** cart's canary paused when the Application was read, and over when its tree was. */
    const suspendedThenOver = (mutate: (a: any) => void = () => {}) => {
      const v2 = appRepoApp(RELEASED, RELEASED, a => {
        a.status.health = { status: 'Suspended' };
        a.status.resources.push({ ...rolloutEntry(a), name: 'cart', health: { status: 'Suspended' } });
        mutate(a);
      });
      return argoCd3(v2);
    };
    const judge = (application: Application) =>
      evaluateServiceHealth(SERVICE, input({ application, platformRevisionCarriesRelease: {} }));

    it('leaves a service running its own Release alone healthy, and says why', () => {
      const app = suspendedThenOver();
      const health = judge(withResourceTreeHealth(app, treeOf(app)));
      expect(health.verdict).toBe('healthy');
      expect(health.checks.find(c => c.id === 'app-health')!.detail).toBe(
        "Application alpha-shop-test is Suspended, which no resource of its resource tree (read after it) explains; storefront's own Release is applied and running, so this concerns another service",
      );
    });

    it('holds back a service still running its previous digest', () => {
      const app = suspendedThenOver(a => (a.status.summary.images = [image(OLD)]));
      const health = judge(withResourceTreeHealth(app, treeOf(app)));
      expect(health.healthy).toBe(false);
      expect(failing(health)).toEqual(['app-health', 'image']);
    });

    it('counts a Degraded Application even so', () => {
      const app = suspendedThenOver(a => {
        a.status.health = { status: 'Degraded' };
        rolloutEntry(a).health = { status: 'Healthy' };
      });
      const health = judge(withResourceTreeHealth(app, treeOf(app)));
      expect(health.verdict).toBe('unhealthy');
      expect(failing(health)).toEqual(['app-health']);
    });

    it('counts when a resource of the tree has no health to compare', () => {
      const app = suspendedThenOver();
      const health = judge(withResourceTreeHealth(app, treeOf(app, { cart: undefined })));
      expect(health.verdict).toBe('progressing');
      expect(failing(health)).toEqual(['app-health']);
    });

    it('counts when the tree explains it by a resource that is not a Rollout', () => {
      const app = suspendedThenOver();
      const other = app.status!.resources!.find(r => r.kind !== 'Rollout')!.name!;
      const health = judge(withResourceTreeHealth(app, treeOf(app, { [other]: 'Suspended' })));
      expect(health.verdict).toBe('progressing');
      expect(failing(health)).toEqual(['app-health']);
    });
  });

  it('Argo CD 2 and Argo CD 3 with its tree give the same judgement', () => {
    const v2 = appRepoApp(RELEASED);
    const v3 = withResourceTreeHealth(argoCd3(v2), [rolloutNode('Healthy')]);
    const judge = (application: Application) =>
      evaluateServiceHealth(SERVICE, input({ application, platformRevisionCarriesRelease: {} }));
    expect(judge(v3).checks).toEqual(judge(v2).checks);
  });
});

describe('evaluateStageHealth', () => {
  const healthy = evaluateServiceHealth(SERVICE, input());
  const progressing = evaluateServiceHealth(
    SERVICE,
    input({
      application: syntheticApp(a => {
        a.status.sync.status = 'OutOfSync';
        a.status.summary.images = [image(OLD)];
      }),
    }),
  );
  const unknown = evaluateServiceHealth(
    SERVICE,
    input({ applicationLookupError: 'timeout' }),
  );
  const unhealthy = evaluateServiceHealth(
    SERVICE,
    input({
      application: syntheticApp(a => (a.status.summary.images = [image(OLD)])),
    }),
  );

  it.each<[string, Record<string, ServiceHealth>, HealthVerdict]>([
    ['all healthy', { storefront: healthy, cart: healthy }, 'healthy'],
    [
      'one progressing',
      { storefront: healthy, cart: progressing },
      'progressing',
    ],
    [
      'unknown beats progressing',
      { storefront: unknown, cart: progressing },
      'unknown',
    ],
    [
      'unhealthy beats unknown',
      { storefront: unknown, cart: unhealthy },
      'unhealthy',
    ],
    ['no services', {}, 'unknown'],
  ])('%s', (_name, services, verdict) => {
    const stage = evaluateStageHealth(services);
    expect(stage.verdict).toBe(verdict);
    expect(stage.healthy).toBe(verdict === 'healthy');
  });

  it('prefixes reasons with the service and gives a shared reason once', () => {
    const stage = evaluateStageHealth({
      storefront: unknown,
      cart: unknown,
      web: healthy,
    });
    expect(stage.reasons).toEqual([
      'storefront, cart: ArgoCD unreachable: timeout',
    ]);
    expect(stage.services).toEqual({
      storefront: 'unknown',
      cart: 'unknown',
      web: 'healthy',
    });
  });

  it('keeps each service’s own reasons', () => {
    const stage = evaluateStageHealth({ storefront: healthy, cart: unhealthy });
    expect(stage.reasons).toEqual([
      'cart: Running sha256:aaaabbbbbbbb… but the Release names sha256:ddddeeeeeeee…',
    ]);
  });

  it('worstVerdict orders healthy < progressing < unknown < unhealthy', () => {
    expect(worstVerdict(['healthy', 'progressing'])).toBe('progressing');
    expect(worstVerdict(['unhealthy', 'unknown', 'healthy'])).toBe('unhealthy');
    expect(worstVerdict([])).toBe('unknown');
  });
});
