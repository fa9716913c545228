import { CacheManager } from '@backstage/backend-defaults/cache';
import { ConfigReader } from '@backstage/config';
import { devReleaseFile, digestEntries } from '../__testUtils__/releaseFiles';
import { readPromotionsConfig } from '../config';
import { GithubClient } from '../github/createOctokit';
import { PlatformRepoReader } from '../github/PlatformRepoReader';
import { readProductRecords } from './readProductRecords';

const digest = `sha256:${'a'.repeat(64)}`;
const BLOBS: Record<string, string> = {
  release: devReleaseFile(digestEntries({ cart: digest })),
  environment: `apiVersion: platform.refplat.org/v1beta1
kind: Environment
metadata:
  name: alpha-shop-dev
spec:
  team: alpha
  product: shop
  stage: dev
  services:
    - name: cart
`,
  broken: 'kind: Release\n  bad: [indent',
};
const INDEX = {
  'gitops/releases/alpha/shop/dev.yaml': 'release',
  'gitops/environments/alpha/shop/dev.yaml': 'environment',
  'gitops/releases/alpha/shop/test.yaml': 'broken',
};
const config = readPromotionsConfig(
  new ConfigReader({ promotions: { platformRepo: { host: 'github.com', owner: 'o', repo: 'r' }, stages: ['dev', 'test'], approval: { stages: [] } } }),
);

describe('readProductRecords', () => {
  it('reads and parses each blob once per reader, a broken file included, and says which file is broken each time', async () => {
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const cacheReads = jest.spyOn(cache, 'get');
    const blobRequests: string[] = [];
    const octokit = {
      hook: { after: () => {} },
      request: async (_route: string, { file_sha }: { file_sha: string }) => {
        blobRequests.push(file_sha);
        return { data: { encoding: 'utf-8', content: BLOBS[file_sha] } };
      },
    } as unknown as GithubClient;
    const reader = new PlatformRepoReader(octokit, cache, { owner: 'o', repo: 'r', branch: 'main' }, ['gitops']);
    const product = { team: 'alpha', product: 'shop' };

    const first = await readProductRecords(reader, config, INDEX, product);
    const readsOfFirst = cacheReads.mock.calls.length;
    const second = await readProductRecords(reader, config, INDEX, product);

    expect(second).toEqual(first);
    expect(first.stages[0].release.services).toEqual({ cart: digest });
    expect(first.stages[0].environment.services).toEqual(['cart']);
    expect(first.stages[1].release.summary.error).toMatch(/^gitops\/releases\/alpha\/shop\/test\.yaml: .*not valid YAML/);
    expect(blobRequests.sort()).toEqual(['broken', 'environment', 'release']);
    // The second read parsed nothing and asked the cache for nothing.
    expect(readsOfFirst).toBeGreaterThan(0);
    expect(cacheReads.mock.calls.length).toBe(readsOfFirst);
  });
});
