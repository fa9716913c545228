import { FakeHealthSource } from './FakeHealthSource';

const SHOP = { team: 'alpha', product: 'shop' };

describe('FakeHealthSource', () => {
  it("lists each Product's Applications as set, or says its source is unreachable", async () => {
    const health = new FakeHealthSource();
    health.setApplication(SHOP, 'dev', { images: ['registry/alpha/shop/api@sha256:a'], revision: 'abc' });
    health.setApplication({ team: 'beta', product: 'x' }, 'dev', { health: 'Degraded', sync: 'OutOfSync' });
    const listing = await health.listApplications(SHOP);
    expect(listing.errors).toEqual([]);
    expect(listing.applications).toEqual([
      {
        source: 'fake',
        application: expect.objectContaining({
          metadata: expect.objectContaining({
            name: 'alpha-shop-dev',
            labels: { 'refplat.org/team': 'alpha', 'refplat.org/product': 'shop' },
          }),
          status: {
            sync: { status: 'Synced', revision: 'abc' },
            health: { status: 'Healthy' },
            summary: { images: ['registry/alpha/shop/api@sha256:a'] },
            resources: [],
          },
        }),
      },
    ]);
    expect((await health.listApplications()).applications).toHaveLength(2);
    health.removeApplication(SHOP, 'dev');
    expect((await health.listApplications(SHOP)).applications).toEqual([]);
    health.unreachable('connection refused');
    expect(await health.listApplications(SHOP)).toEqual({
      applications: [],
      errors: ["ArgoCD 'fake' unreachable: connection refused"],
    });
  });

  it("makes a stage that runs digests as the plugin's defaults read it: the Release synced, Rollouts and images", async () => {
    const health = new FakeHealthSource();
    const application = health.runs(SHOP, 'dev', { api: 'sha256:b' }, 'c0ffee');
    expect(application.spec?.source).toEqual({
      repoURL: 'https://github.com/platform/gitops',
      targetRevision: 'main',
      path: 'gitops/releases/alpha/shop',
      directory: { include: 'dev.yaml' },
    });
    expect(application.status).toMatchObject({
      sync: { status: 'Synced', revision: 'c0ffee' },
      summary: { images: ['registry.example/team-alpha/shop-api@sha256:b'] },
      resources: [expect.objectContaining({ kind: 'Rollout', name: 'api', health: { status: 'Healthy' } })],
    });
  });

  it('answers the live Rollouts asked for', async () => {
    const health = new FakeHealthSource();
    const application = health.setApplication(SHOP, 'prod');
    health.setRollout('alpha-shop-prod', 'api', { metadata: { name: 'api' } });
    const rollouts = await health.liveRollouts({ application, source: 'fake' }, ['api', 'web']);
    expect([...rollouts.keys()]).toEqual(['api']);
  });
});
