import { CacheManager } from '@backstage/backend-defaults/cache';
import { ConfigReader } from '@backstage/config';
import { Octokit } from '@octokit/rest';
import { GithubClient } from './createOctokit';
import { PlatformRepoReader } from './PlatformRepoReader';
import { gitBlobSha } from './repoTarball';

const COMMIT = 'c0ffee0000000000000000000000000000000000';
const BLOB = 'b10b000000000000000000000000000000000000';

/** A reader whose GitHub answers every request 200 with `body`: a proxy or a GitHub in trouble. */
function readerAnswering(body: unknown) {
  const fetch = async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const octokit = new Octokit({ baseUrl: 'https://github.test/api/v3', request: { fetch } }) as unknown as GithubClient;
  const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
  return new PlatformRepoReader(octokit, cache, { owner: 'refplat', repo: 'platform', branch: 'main' }, ['gitops']);
}

describe('PlatformRepoReader on malformed answers', () => {
  it.each([
    ['a tree without entries', { sha: COMMIT, truncated: false }, 'a body with sha, truncated'],
    ['a tree whose entries are not a list', { sha: COMMIT, tree: 'oops' }, 'a body with sha, tree'],
    ['an empty body', {}, 'an empty body'],
  ])('fails a tree read with a clear error, not a TypeError: %s', async (_case, body, described) => {
    await expect(readerAnswering(body).fileIndex(COMMIT)).rejects.toThrow(
      `GitHub answered the tree of refplat/platform@${COMMIT} without its list of entries (${described})`,
    );
  });

  it('fails a blob read without content with a clear error', async () => {
    await expect(readerAnswering({ sha: BLOB, encoding: 'base64' }).readBlob(BLOB)).rejects.toThrow(
      `GitHub answered blob ${BLOB} of refplat/platform without its content (a body with sha, encoding)`,
    );
  });
});

describe('PlatformRepoReader head checks', () => {
  it('answers a head check from a recent one, and asks GitHub again when told fresh', async () => {
    const asked: string[] = [];
    let head = COMMIT;
    const fetch = async (url: string) => {
      asked.push(new URL(url).pathname);
      return new Response(JSON.stringify({ ref: 'refs/heads/main', object: { sha: head } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const octokit = new Octokit({ baseUrl: 'https://github.test/api/v3', request: { fetch } }) as unknown as GithubClient;
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const reader = new PlatformRepoReader(octokit, cache, { owner: 'refplat', repo: 'platform', branch: 'main' }, ['gitops'], 60_000);

    expect(await reader.headCommit()).toBe(COMMIT);
    head = BLOB;
    expect(await reader.headCommit()).toBe(COMMIT);
    expect(await reader.headCommit({ fresh: true })).toBe(BLOB);
    expect(await reader.headCommit()).toBe(BLOB);
    expect(asked).toEqual(['/api/v3/repos/refplat/platform/git/ref/heads%2Fmain', '/api/v3/repos/refplat/platform/git/ref/heads%2Fmain']);
  });
});

describe('PlatformRepoReader and the files this replica commits', () => {
  /** A GitHub that answers a contents PUT with `blobSha` as the file's, and counts every other request. */
  function committingReader(blobSha: (text: Buffer) => string) {
    const asked: string[] = [];
    const fetch = async (url: string, init: { method?: string; body?: string }) => {
      if (init.method === 'PUT') {
        const { content } = JSON.parse(init.body!);
        const answer = { content: { sha: blobSha(Buffer.from(content, 'base64')) }, commit: { sha: COMMIT } };
        return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      asked.push(new URL(url).pathname);
      return new Response(JSON.stringify({ content: Buffer.from('from GitHub').toString('base64'), encoding: 'base64' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const octokit = new Octokit({ baseUrl: 'https://github.test/api/v3', request: { fetch } }) as unknown as GithubClient;
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const reader = new PlatformRepoReader(octokit, cache, { owner: 'refplat', repo: 'platform', branch: 'main' }, ['gitops']);
    const commit = (text: string) =>
      octokit.rest.repos.createOrUpdateFileContents({
        owner: 'refplat',
        repo: 'platform',
        path: 'gitops/releases/alpha/shop/test.yaml',
        branch: 'promotions/alpha-shop-test',
        message: 'Promote',
        content: Buffer.from(text).toString('base64'),
      });
    return { reader, commit, asked };
  }

  it('reads a file it committed from the cache, not from GitHub', async () => {
    const { reader, commit, asked } = committingReader(gitBlobSha);
    await commit('services:\n  api: sha256:b\n');

    expect(await reader.readBlob(gitBlobSha(Buffer.from('services:\n  api: sha256:b\n')))).toBe('services:\n  api: sha256:b\n');
    expect(asked).toEqual([]);
  });

  it('keeps nothing when the blob sha GitHub answers is not the text it was sent', async () => {
    const { reader, commit, asked } = committingReader(() => BLOB);
    await commit('services:\n  api: sha256:b\n');

    expect(await reader.readBlob(BLOB)).toBe('from GitHub');
    expect(asked).toEqual([`/api/v3/repos/refplat/platform/git/blobs/${BLOB}`]);
  });
});
