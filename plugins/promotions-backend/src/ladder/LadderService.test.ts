import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { FakeHealthSource, InMemoryPlatformRepo, ManualClock } from '@refplat/plugin-promotions-node/testUtils';
import { readPromotionsConfig } from '../config';
import { SHOP, digest, releaseFile } from '../promotions/__testUtils__/promotionsWorld';
import { LadderService } from './LadderService';
import { releasePath } from './readProductRecords';

function ladderWorld() {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const repo = new InMemoryPlatformRepo({ clock });
  const health = new FakeHealthSource();
  const config = readPromotionsConfig(
    new ConfigReader({ promotions: { platformRepo: { owner: 'platform', repo: 'gitops' }, stages: ['dev', 'uat'], approval: { stages: ['uat'] } } }),
  );
  repo.commit({
    [releasePath(config, SHOP, 'dev')]: releaseFile('dev', { api: digest('b') }),
    [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('a') }),
  });
  const ladders = new LadderService({ config, repo, healthSource: health, logger: mockServices.logger.mock(), clock });
  return { repo, health, ladders };
}

describe('LadderService on the fakes', () => {
  it('judges a stage healthy that runs its released digests, Synced and Healthy', async () => {
    const { health, ladders, repo } = ladderWorld();
    health.runs(SHOP, 'dev', { api: digest('b') }, repo.branchHead()!);
    health.runs(SHOP, 'uat', { api: digest('c') }, repo.branchHead()!);

    const ladder = await ladders.getLadder(SHOP);

    const [dev, uat] = ladder.stages;
    expect(dev.services.api).toMatchObject({ digest: digest('b'), healthy: true, verdict: 'healthy' });
    expect(uat.services.api).toMatchObject({ digest: digest('a'), healthy: false, runningDigests: [digest('c')] });
    expect(ladder.generatedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('says the health is unknown while the health source is unreachable', async () => {
    const { health, ladders } = ladderWorld();
    health.unreachable('connection refused');

    const ladder = await ladders.getLadder(SHOP);

    expect(ladder.healthError).toBe("ArgoCD 'fake' unreachable: connection refused");
    expect(ladder.stages[0].services.api.healthy).toBe(false);
  });
});
