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
});
