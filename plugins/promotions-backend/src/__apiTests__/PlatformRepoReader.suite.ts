import { execFileSync } from 'child_process';
import { CacheManager } from '@backstage/backend-defaults/cache';
import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import type { RunningSim } from '@refplat/platform-sim';
import { createOctokit } from '../github/createOctokit';
import { PlatformRepoReader, TARBALL_THRESHOLD } from '../github/PlatformRepoReader';
import { addManyProducts } from '../bench/manyProducts';
import { sharedSim } from '../__testUtils__/sharedSimBackend';

const REPO = { owner: 'refplat', repo: 'platform' };
const LOCATION = { ...REPO, branch: 'main' };
const ONE_HOUR_MS = 60 * 60 * 1000;

/**
 * GitHub alone: ArgoCD's loop would canary the Products a test adds, and its stop waits for the tick.
 * The file's simulator for these options (githubCost's suite asks for the same).
 */
const githubSim = (options: { treeEntryLimit?: number } = {}) =>
  sharedSim({ reconcileIntervalMs: ONE_HOUR_MS, ...options });

/**
 * One simulator for the tests (each counts only its own requests: no backend
 * runs on it), and one with a small tree limit. The first is the file's
 * GitHub-only simulator, which githubCost's suite shares: both add the same
 * 200 Products (addManyProducts names them alike).
 */
export function platformRepoReaderSuite() {
  describe('PlatformRepoReader', () => {
    const github = githubSim();
    let sim: RunningSim;

    beforeAll(() => {
      sim = github.sim;
    });

    const client = () => {
      const host = new URL(sim.url).host;
      return createOctokit({
        config: new ConfigReader({
          integrations: { github: [{ host, apiBaseUrl: sim.githubApiUrl, token: sim.tokens.github }] },
        }),
        host,
        ...LOCATION,
        logger: mockServices.logger.mock(),
      });
    };
    const headChecks = () =>
      sim.control.getRequests('github').filter(call => call.path === '/repos/refplat/platform/commits/heads/main');

    it('reuses a head check within its TTL, and asks again after a write by any registered client', async () => {
      const reads = client();
      const writes = client();
      const reader = new PlatformRepoReader(reads, mockServices.cache.mock(), LOCATION, ['gitops'], ONE_HOUR_MS);
      reader.forgetHeadAfterWritesBy(writes);
      const unregistered = client();
      sim.control.clearRequests();

      const head = await reader.headCommit();
      await reader.headCommit();
      expect(headChecks()).toHaveLength(1);

      // a write nobody registered leaves the remembered head in place
      await unregistered.rest.git.createRef({ ...REPO, ref: 'refs/heads/elsewhere', sha: head });
      await reader.headCommit();
      expect(headChecks()).toHaveLength(1);

      // a write by the registered client (as the Gate's merge) forgets it
      await writes.rest.git.createRef({ ...REPO, ref: 'refs/heads/gate-write', sha: head });
      await reader.headCommit();
      expect(headChecks()).toHaveLength(2);

      // and so does a write through the reader's own client
      await reads.rest.git.deleteRef({ ...REPO, ref: 'heads/elsewhere' });
      await reader.headCommit();
      expect(headChecks()).toHaveLength(3);
    });

    describe('reading many files', () => {
      const memoryCache = () => CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions').withOptions({});
      const git = (...args: string[]) =>
        execFileSync('git', ['--git-dir', sim.repoDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
      const calls = () => sim.control.getRequests('github').map(call => `${call.status} ${call.method} ${call.path}`);
      /** Path → blob sha under gitops/ at a commit, as git itself lists it. */
      const gitIndex = (commit: string) =>
        Object.fromEntries(
          git('ls-tree', '-r', commit, 'gitops')
            .trim()
            .split('\n')
            .map(line => {
              const [meta, path] = line.split('\t');
              return [path, meta.split(' ')[2]];
            }),
        );

      it('reads a cold tree of 200 Products through one tarball: 4 GitHub requests, every blob then cached', async () => {
        addManyProducts(sim.repoDir, 200);
        const reader = new PlatformRepoReader(client(), memoryCache(), LOCATION, ['gitops']);
        sim.control.clearRequests();

        const head = await reader.headCommit();
        const index = await reader.fileIndex(head);
        expect(index).toEqual(gitIndex(head));
        const some = Object.entries(index).filter((_, n) => n % 97 === 0);
        for (const [, blob] of some) expect(await reader.readBlob(blob)).toBe(git('cat-file', 'blob', blob));
        for (const blob of Object.values(index)) await reader.readBlob(blob);

        expect(calls()).toEqual([
          '200 GET /repos/refplat/platform/commits/heads/main',
          `200 GET /repos/refplat/platform/git/trees/${head}`,
          `302 GET /repos/refplat/platform/tarball/${head}`,
          `200 GET /refplat/platform/legacy.tar.gz/${head}`,
        ]);
      });

      it('reads a few changed blobs one by one, and a cold start shares one tarball between concurrent callers', async () => {
        addManyProducts(sim.repoDir, 30);
        const reader = new PlatformRepoReader(client(), memoryCache(), LOCATION, ['gitops']);
        sim.control.clearRequests();
        const first = await reader.headCommit();
        const indexes = await Promise.all([reader.fileIndex(first), reader.fileIndex(first), reader.fileIndex(first)]);
        expect(indexes[1]).toEqual(indexes[0]);
        expect(calls().filter(call => call.includes('/tarball/'))).toHaveLength(1);

        await sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'cart' });
        const second = git('rev-parse', 'main').trim();
        sim.control.clearRequests();
        const index = await reader.fileIndex(second);
        const changed = Object.entries(index).filter(([path, blob]) => indexes[0][path] !== blob);
        expect(changed.length).toBeGreaterThan(0);
        expect(changed.length).toBeLessThanOrEqual(TARBALL_THRESHOLD);
        for (const [, blob] of changed) await reader.readBlob(blob);
        expect(calls()).toEqual([
          `200 GET /repos/refplat/platform/git/trees/${second}`,
          ...changed.map(([, blob]) => `200 GET /repos/refplat/platform/git/blobs/${blob}`),
        ]);
      });

      describe('a tree larger than GitHub lists in one response', () => {
        const limited = githubSim({ treeEntryLimit: 50 });
        let unlimited: RunningSim;
        beforeAll(() => {
          unlimited = sim;
          sim = limited.sim;
        });
        afterAll(() => {
          sim = unlimited;
        });

        it('is indexed from the tarball, with the same blob shas as git', async () => {
          addManyProducts(sim.repoDir, 20);
          const reader = new PlatformRepoReader(client(), memoryCache(), LOCATION, ['gitops']);
          const head = await reader.headCommit();
          sim.control.clearRequests();
          const index = await reader.fileIndex(head);
          expect(index).toEqual(gitIndex(head));
          expect(calls()).toEqual([
            `200 GET /repos/refplat/platform/git/trees/${head}`,
            `302 GET /repos/refplat/platform/tarball/${head}`,
            `200 GET /refplat/platform/legacy.tar.gz/${head}`,
          ]);

          // the next commit's index is the last one changed by a comparison: 1 request, not the tarball
          await sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'cart' });
          const next = git('rev-parse', 'main').trim();
          sim.control.clearRequests();
          expect(await reader.fileIndex(next)).toEqual(gitIndex(next));
          expect(calls()).toEqual([`200 GET /repos/refplat/platform/compare/${head}...${next}`]);

          // and the first commit's index is still in the cache
          sim.control.clearRequests();
          expect(await reader.fileIndex(head)).toEqual(gitIndex(head));
          expect(calls()).toEqual([]);
        });
      });
    });
  });
}
