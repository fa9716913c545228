import type { Application, ResourceNode } from '../argo/types';
import { withResourceTreeHealth } from '../argo/resourceTree';
import { evaluateServiceHealth, HealthVerdict } from './serviceHealth';
import {
  SERVICE,
  RELEASED,
  OLD,
  image,
  syntheticApp,
  rolloutEntry,
  input,
  failing,
} from './__testUtils__/serviceHealthInput';

describe("evaluateServiceHealth: the seeds' shape (app repo, digest injected) and Argo CD 3", () => {
  const APP_SHA = '0123456789abcdef0123456789abcdef01234567';
  const appRepoSource = (digest: string) => ({
    repoURL: 'https://github.com/alpha/shop-app.git',
    path: 'k8s/overlays/test',
    targetRevision: 'HEAD',
    kustomize: { images: [`ghcr.io/alpha/shop/storefront=${image(digest)}`] },
  });

  /** The synthetic Application syncing the app repo, `injected` in its spec, `compared` in comparedTo. */
  function appRepoApp(
    injected: string,
    compared = injected,
    mutate: (a: any) => void = () => {},
  ) {
    return syntheticApp(a => {
      a.spec.source = appRepoSource(injected);
      a.status.sync.revision = APP_SHA;
      a.status.sync.comparedTo = {
        source: appRepoSource(compared),
        destination: a.spec.destination,
      };
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
      input({
        application: appRepoApp(RELEASED),
        platformRevisionCarriesRelease: {},
      }),
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
        application: appRepoApp(
          OLD,
          OLD,
          a => (a.status.summary.images = [image(OLD)]),
        ),
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
        application: appRepoApp(
          RELEASED,
          OLD,
          a => (a.status.summary.images = [image(OLD)]),
        ),
        platformRevisionCarriesRelease: {},
      }),
    );
    expect(health.verdict).toBe('progressing');
    expect(failing(health)).toEqual(['revision', 'image']);
  });

  it.each<[string, ResourceNode[], HealthVerdict, string]>([
    [
      'Healthy Rollout node',
      [rolloutNode('Healthy')],
      'healthy',
      'Rollout storefront is Healthy',
    ],
    [
      'Suspended Rollout node (paused canary)',
      [rolloutNode('Suspended')],
      'progressing',
      'Rollout storefront is paused',
    ],
    [
      'Degraded Rollout node',
      [rolloutNode('Degraded')],
      'unhealthy',
      'Rollout storefront is Degraded',
    ],
    [
      'no node for the Rollout: as a missing Rollout',
      [],
      'unhealthy',
      'Rollout storefront is Missing: it is in git but not in the cluster',
    ],
  ])(
    'Argo CD 3 with the resource tree overlaid, %s → %s',
    (_case, nodes, verdict, detail) => {
      const app = withResourceTreeHealth(argoCd3(appRepoApp(RELEASED)), nodes);
      const health = evaluateServiceHealth(
        SERVICE,
        input({ application: app, platformRevisionCarriesRelease: {} }),
      );
      expect(health.checks.find(c => c.id === 'rollout')).toMatchObject({
        verdict,
        detail,
      });
    },
  );

  /** A tree node for each of `app`'s resources, Healthy unless `health` names it otherwise. */
  function treeOf(
    app: Application,
    health: Record<string, string | undefined> = {},
  ): ResourceNode[] {
    return app.status!.resources!.map(
      ({ group, version, kind, namespace, name = '' }) => {
        const status = name in health ? health[name] : 'Healthy';
        return {
          group,
          version,
          kind,
          namespace,
          name,
          ...(status ? { health: { status } } : {}),
        };
      },
    );
  }

  describe("Argo CD 3: an Application's health that its tree, read after it, does not explain", () => {
    /** cart's canary paused when the Application was read, and over when its tree was. */
    const suspendedThenOver = (mutate: (a: any) => void = () => {}) => {
      const v2 = appRepoApp(RELEASED, RELEASED, a => {
        a.status.health = { status: 'Suspended' };
        a.status.resources.push({
          ...rolloutEntry(a),
          name: 'cart',
          health: { status: 'Suspended' },
        });
        mutate(a);
      });
      return argoCd3(v2);
    };
    const judge = (application: Application) =>
      evaluateServiceHealth(
        SERVICE,
        input({ application, platformRevisionCarriesRelease: {} }),
      );

    it('leaves a service running its own Release alone healthy, and says why', () => {
      const app = suspendedThenOver();
      const health = judge(withResourceTreeHealth(app, treeOf(app)));
      expect(health.verdict).toBe('healthy');
      expect(health.checks.find(c => c.id === 'app-health')!.detail).toBe(
        "Application alpha-shop-test is Suspended, which no resource of its resource tree (read after it) explains; storefront's own Release is applied and running, so this concerns another service",
      );
    });

    it('holds back a service still running its previous digest', () => {
      const app = suspendedThenOver(
        a => (a.status.summary.images = [image(OLD)]),
      );
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
      const health = judge(
        withResourceTreeHealth(app, treeOf(app, { cart: undefined })),
      );
      expect(health.verdict).toBe('progressing');
      expect(failing(health)).toEqual(['app-health']);
    });

    it('counts when the tree explains it by a resource that is not a Rollout', () => {
      const app = suspendedThenOver();
      const other = app.status!.resources!.find(
        r => r.kind !== 'Rollout',
      )!.name!;
      const health = judge(
        withResourceTreeHealth(app, treeOf(app, { [other]: 'Suspended' })),
      );
      expect(health.verdict).toBe('progressing');
      expect(failing(health)).toEqual(['app-health']);
    });
  });

  it('Argo CD 2 and Argo CD 3 with its tree give the same judgement', () => {
    const v2 = appRepoApp(RELEASED);
    const v3 = withResourceTreeHealth(argoCd3(v2), [rolloutNode('Healthy')]);
    const judge = (application: Application) =>
      evaluateServiceHealth(
        SERVICE,
        input({ application, platformRevisionCarriesRelease: {} }),
      );
    expect(judge(v3).checks).toEqual(judge(v2).checks);
  });
});
