import { mockCache } from '../__testUtils__/lightServices';
import { ConfigReader } from '@backstage/config';
import { SourceRevision } from '@refplat/plugin-promotions-common';
import type { PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import { InMemoryPlatformRepo, ManualClock } from '@refplat/plugin-promotions-node/testUtils';
import { readPromotionsConfig } from '../config';
import { GithubClient } from '../github/createOctokit';
import { environmentPath, releasePath } from '../ladder/readProductRecords';
import { SHOP, digest, environmentFile, releaseFile } from './__testUtils__/promotionsWorld';
import { WhatChanged } from './WhatChanged';

const config = readPromotionsConfig(
  new ConfigReader({ promotions: { platformRepo: { owner: 'platform', repo: 'gitops' }, stages: ['dev', 'test'], approval: { stages: [] } } }),
);

/** alpha/shop with `b` in dev and `a` in test, no source in either Release; GitHub compares any range as one commit. */
function setUp(attested: Record<string, SourceRevision>) {
  const repo = new InMemoryPlatformRepo({ clock: new ManualClock('2026-01-01T00:00:00Z') });
  repo.commit(
    Object.fromEntries(
      Object.entries({ dev: digest('b'), test: digest('a') }).flatMap(([stage, api]) => [
        [releasePath(config, SHOP, stage), releaseFile(stage, { api })],
        [environmentPath(config, SHOP, stage), environmentFile(stage, ['api'])],
      ]),
    ),
    { message: 'Seed alpha/shop' },
  );
  const compare = jest.fn(async ({ owner, repo: name, basehead }: { owner: string; repo: string; basehead: string }) => ({
    data: {
      html_url: `https://github.com/${owner}/${name}/compare/${basehead}`,
      total_commits: 1,
      commits: [{ sha: 'c2', html_url: `https://github.com/${owner}/${name}/commit/c2`, author: { login: 'bob' }, commit: { message: 'Fix the cart\n\nmore', author: null } }],
    },
  }));
  const octokit = { rest: { repos: { compareCommitsWithBasehead: compare } } } as unknown as GithubClient;
  const asked: string[] = [];
  const whatChanged = new WhatChanged({
    config,
    reader: repo,
    octokit,
    cache: mockCache(),
    attestedSource: async (service, d) => {
      asked.push(`${service.team}/${service.product} ${service.service} ${d}`);
      return attested[d];
    },
  });
  return { whatChanged, compare, asked, repo };
}

describe('WhatChanged', () => {
  it("compares the source commits the digests' verified provenance attests, where the Releases record none", async () => {
    const { whatChanged, compare, asked } = setUp({
      [digest('a')]: { repository: 'acme/shop', revision: 'c1' },
      [digest('b')]: { repository: 'acme/shop', revision: 'c2' },
    });
    const [api] = await whatChanged.between(SHOP, 'dev', 'test');
    expect(api).toEqual({
      service: 'api',
      from: digest('b'),
      to: digest('a'),
      changed: true,
      compareUrl: 'https://github.com/acme/shop/compare/c1...c2',
      commits: [{ sha: 'c2', message: 'Fix the cart', author: 'bob', url: 'https://github.com/acme/shop/commit/c2' }],
    });
    expect(compare).toHaveBeenCalledWith(expect.objectContaining({ owner: 'acme', repo: 'shop', basehead: 'c1...c2' }));
    expect(asked).toEqual([`alpha/shop api ${digest('b')}`, `alpha/shop api ${digest('a')}`]);
  });

  it('says no source commit is known when one digest has neither an attested nor a recorded source', async () => {
    const { whatChanged, compare } = setUp({ [digest('b')]: { repository: 'acme/shop', revision: 'c2' } });
    const [api] = await whatChanged.between(SHOP, 'dev', 'test');
    expect(api.note).toBe(
      `No source commit is recorded for ${digest('a')}; CI can add spec.services.api.source {repository, revision} to the Release`,
    );
    expect(compare).not.toHaveBeenCalled();
  });

  it('says a service new to the upper stage has nothing there to compare with, naming no digest it lacks (issue 45)', async () => {
    const { whatChanged, compare, repo } = setUp({ [digest('b')]: { repository: 'acme/shop', revision: 'c2' } });
    repo.commit({ [releasePath(config, SHOP, 'test')]: releaseFile('test', {}) }, { message: 'test without api' });
    const [api] = await whatChanged.between(SHOP, 'dev', 'test');
    expect(api).toMatchObject({ changed: true, from: digest('b'), note: 'api would be new in test: no earlier digest there to compare with' });
    expect(api.to).toBeUndefined();
    expect(compare).not.toHaveBeenCalled();
  });

  it('reads the Releases at the branch head as it is now, not at a recently checked head', async () => {
    const { whatChanged, repo } = setUp({});
    const seeded = await repo.headCommit();
    const headCommit = repo.headCommit.bind(repo);
    // A reader that answers from a recent check unless asked for a fresh one (as PlatformRepoReader does).
    const reader: PlatformRepoFiles = repo;
    jest.spyOn(reader, 'headCommit').mockImplementation(async options => (options?.fresh ? headCommit() : seeded));
    repo.commit(
      {
        [releasePath(config, SHOP, 'dev')]: releaseFile('dev', { api: digest('b') }, { api: { repository: 'acme/shop', revision: 'c2c2c2c' } }),
        [releasePath(config, SHOP, 'test')]: releaseFile('test', { api: digest('a') }, { api: { repository: 'acme/shop', revision: 'c1c1c1c' } }),
      },
      { message: 'CI records the sources' },
    );
    const [api] = await whatChanged.between(SHOP, 'dev', 'test');
    expect(api.compareUrl).toBe('https://github.com/acme/shop/compare/c1c1c1c...c2c2c2c');
  });
});
