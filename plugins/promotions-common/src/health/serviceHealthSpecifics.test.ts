import type { Application, Rollout } from '../argo/types';
import { loadFixture } from '../__testUtils__/fixtures';
import { evaluateServiceHealth } from './serviceHealth';
import {
  SERVICE,
  RELEASED,
  OLD,
  SHA,
  image,
  syntheticApp,
  rolloutEntry,
  appIn,
  input,
} from './__testUtils__/serviceHealthInput';

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
        application: loadFixture<Application>(
          'argocd-app-outofsync-minimal.yaml',
        ),
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
        application: loadFixture<Application>(
          'argocd-app-degraded-minimal.yaml',
        ),
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
        rollout: loadFixture<Rollout>(
          'rollout-canary-progressing-setweight.yaml',
        ),
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
    expect(health.reasons).toEqual([
      expect.stringMatching(/still runs beside the released/),
    ]);
  });

  it('finds the service’s image by the released digest whatever its name, and names what runs instead by promotions.images', () => {
    const seedsImage = (digest: string) =>
      `registry.refplat.org/team-alpha/shop-cart@${digest}`;
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
    expect(running([seedsImage(RELEASED)])).toMatchObject({
      verdict: 'healthy',
      runningDigests: [RELEASED],
    });
    expect(
      running([`mirror.example.com/builds/b-1234@${RELEASED}`]),
    ).toMatchObject({ verdict: 'healthy', runningDigests: [RELEASED] });
    const wrong = running([
      seedsImage(OLD),
      `registry.refplat.org/team-alpha/shop-storefront@${OLD}`,
    ]);
    expect(wrong).toMatchObject({
      verdict: 'unhealthy',
      runningDigests: [OLD],
    });
    expect(wrong.reasons).toEqual([
      expect.stringMatching(/^Running .* but the Release names/),
    ]);
  });
});
