import { SHOP, digest, promotionsWorld } from '../promotions/__testUtils__/promotionsWorld';

describe('LadderService on the fakes', () => {
  it('judges a stage healthy that runs its released digests, Synced and Healthy', async () => {
    const { argo, repo, ladderService, request } = promotionsWorld();
    argo.runs(SHOP, 'dev', { api: digest('b') }, repo.branchHead()!);
    argo.runs(SHOP, 'uat', { api: digest('c') }, repo.branchHead()!);
    const promotion = await request('uat', { api: digest('b') });

    const ladder = await ladderService().getLadder(SHOP);

    const [dev, uat, prod] = ladder.stages;
    expect(dev.services.api).toMatchObject({ digest: digest('b'), healthy: true, verdict: 'healthy' });
    expect(uat.services.api).toMatchObject({ digest: digest('a'), healthy: false, runningDigests: [digest('c')] });
    expect(prod).toMatchObject({ name: 'prod', requiresApproval: true });
    expect(ladder.promotions.map(p => p.id)).toEqual([promotion.id]);
    expect(ladder.generatedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('says the health is unknown while the health source is unreachable', async () => {
    const { argo, ladderService } = promotionsWorld();
    argo.unreachable('connection refused');

    const ladder = await ladderService().getLadder(SHOP);

    expect(ladder.healthError).toBe("ArgoCD 'fake' unreachable: connection refused");
    expect(ladder.stages[0].services.api.healthy).toBe(false);
  });

  it("reads only the stages a promotion could leave when asked for the auto-promoter's ladder", async () => {
    const { argo, repo, ladderService } = promotionsWorld();
    const head = repo.branchHead()!;
    // Argo CD 3: resource health lives in the resource tree, one read per Application.
    for (const [stage, d] of [['dev', digest('b')], ['uat', digest('a')], ['prod', digest('a')]]) {
      const app = argo.runs(SHOP, stage, { api: d }, head);
      argo.setApplication(SHOP, stage, {
        revision: head,
        images: app.status!.summary!.images,
        application: { status: { ...app.status, resourceHealthSource: 'appTree' } },
      });
      argo.setResourceHealth(`alpha-shop-${stage}`, {
        nodes: app.status!.resources!.map(({ group, kind, namespace, name, health }) => ({ group, kind, namespace, name, health })),
        kinds: ['Rollout'],
        rollouts: new Map(),
      });
    }
    const trees = jest.spyOn(argo, 'resourceHealth');

    const ladder = await ladderService().getLadder(SHOP, { healthOf: 'auto-promotion-sources' });

    // dev offers b to uat; uat and prod (an approval stage) offer nothing the auto-promoter walks.
    expect(trees.mock.calls.map(([observed]) => observed.application.metadata?.name)).toEqual(['alpha-shop-dev']);
    const [dev, uat, prod] = ladder.stages;
    expect(dev.services.api).toMatchObject({ healthy: true, verdict: 'healthy' });
    expect(uat.services.api).toMatchObject({
      healthy: false,
      verdict: 'unknown',
      reasons: ['Health not read: no promotion leaves uat now'],
    });
    expect(prod.services.api.verdict).toBe('unknown');

    trees.mockClear();
    await ladderService().getLadder(SHOP, { healthOf: { stages: ['uat'] } });
    expect(trees.mock.calls.map(([observed]) => observed.application.metadata?.name)).toEqual(['alpha-shop-uat']);

    trees.mockClear();
    await ladderService().getLadder(SHOP);
    expect(trees).toHaveBeenCalledTimes(3);
  });
});
