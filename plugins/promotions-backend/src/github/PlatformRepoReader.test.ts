import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import { dirname, join } from 'path';
import { CacheManager } from '@backstage/backend-defaults/cache';
import { ConfigReader } from '@backstage/config';
import { Octokit } from '@octokit/rest';
import { GithubClient } from './createOctokit';
import { FEW_BLOBS, PlatformRepoReader, SMALL_REPO_BYTES } from './PlatformRepoReader';
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
      return new Response(JSON.stringify({ sha: head, parents: [], files: [] }), {
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
    expect(asked).toEqual(['/api/v3/repos/refplat/platform/commits/heads%2Fmain', '/api/v3/repos/refplat/platform/commits/heads%2Fmain']);
  });
});

describe('PlatformRepoReader after the branch moved', () => {
  const PARENT = 'a'.repeat(40);
  const MERGE = 'b'.repeat(40);
  const TEST_RELEASE = 'gitops/releases/alpha/shop/test.yaml';
  const DEV_RELEASE = 'gitops/releases/alpha/shop/dev.yaml';
  const OLD_BLOB = '1'.repeat(40);
  const NEW_BLOB = '2'.repeat(40);
  const DEV_BLOB = '3'.repeat(40);
  const parentTree = { [TEST_RELEASE]: OLD_BLOB, [DEV_RELEASE]: DEV_BLOB };

  /** A GitHub whose branch is at PARENT, then at `moved`; it lists the trees it is asked for. */
  function movingBranch(moved: object, link?: string) {
    const asked: string[] = [];
    let head: object = { sha: PARENT, parents: [{ sha: 'c'.repeat(40) }], files: [] };
    const fetch = async (url: string) => {
      const path = new URL(url).pathname;
      const isHead = path.endsWith('/commits/heads%2Fmain');
      if (!isHead) asked.push(path);
      const tree = Object.entries(parentTree).map(([file, sha]) => ({ path: file, sha, type: 'blob' }));
      const body = isHead ? head : { sha: PARENT, truncated: false, tree };
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (isHead && link && head === moved) headers.link = link;
      return new Response(JSON.stringify(body), { status: 200, headers });
    };
    const octokit = new Octokit({ baseUrl: 'https://github.test/api/v3', request: { fetch } }) as unknown as GithubClient;
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const replica = () => new PlatformRepoReader(octokit, cache, { owner: 'refplat', repo: 'platform', branch: 'main' }, ['gitops']);
    return {
      reader: replica(),
      /** Another replica sharing the cache. */
      replica,
      asked,
      move: () => {
        head = moved;
      },
    };
  }

  const merged = (files: object[], parents = [{ sha: PARENT }]) => ({ sha: MERGE, parents, files });
  const testReleaseChanged = { filename: TEST_RELEASE, status: 'modified', sha: NEW_BLOB };

  it('derives the index of a head one commit past a known index from its changed files, reading no tree', async () => {
    const { reader, asked, move } = movingBranch(
      merged([testReleaseChanged, { filename: 'README.md', status: 'added', sha: '4'.repeat(40) }]),
    );
    expect(await reader.fileIndex(await reader.headCommit())).toEqual(parentTree);
    move();

    expect(await reader.headCommit({ fresh: true })).toBe(MERGE);
    expect(await reader.fileIndex(MERGE)).toEqual({ [TEST_RELEASE]: NEW_BLOB, [DEV_RELEASE]: DEV_BLOB });
    expect(asked).toEqual([`/api/v3/repos/refplat/platform/git/trees/${PARENT}`]);
  });

  it('keeps a derived index as its changes, from which another replica sharing the cache derives it too', async () => {
    const { reader, replica, asked, move } = movingBranch(merged([testReleaseChanged]));
    await reader.fileIndex(await reader.headCommit());
    move();
    await reader.headCommit({ fresh: true });

    expect(await replica().fileIndex(MERGE)).toEqual({ [TEST_RELEASE]: NEW_BLOB, [DEV_RELEASE]: DEV_BLOB });
    expect(asked).toEqual([`/api/v3/repos/refplat/platform/git/trees/${PARENT}`]);
  });

  it.each([
    ['a merge commit of two parents', merged([testReleaseChanged], [{ sha: PARENT }, { sha: 'd'.repeat(40) }])],
    ['a commit whose parent has no known index', merged([testReleaseChanged], [{ sha: 'e'.repeat(40) }])],
    ['a list of 300 files, which GitHub may have cut', merged(Array.from({ length: 300 }, () => testReleaseChanged))],
    ['a changed file without its blob sha', merged([{ filename: TEST_RELEASE, status: 'modified' }])],
    ['a rename without its old name', merged([{ ...testReleaseChanged, status: 'renamed' }])],
    ['an answer without its files', { sha: MERGE, parents: [{ sha: PARENT }] }],
  ])('reads the tree of the new head after %s', async (_case, moved) => {
    const { reader, asked, move } = movingBranch(moved);
    await reader.fileIndex(await reader.headCommit());
    move();

    await reader.fileIndex(await reader.headCommit({ fresh: true }));
    expect(asked).toEqual([
      `/api/v3/repos/refplat/platform/git/trees/${PARENT}`,
      `/api/v3/repos/refplat/platform/git/trees/${MERGE}`,
    ]);
  });

  it('reads the tree of the new head when GitHub pages the commit\'s files', async () => {
    const { reader, asked, move } = movingBranch(merged([testReleaseChanged]), '<https://github.test/x?page=2>; rel="next"');
    await reader.fileIndex(await reader.headCommit());
    move();

    await reader.fileIndex(await reader.headCommit({ fresh: true }));
    expect(asked).toHaveLength(2);
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

describe('PlatformRepoReader reading a Product\'s files', () => {
  const PRODUCT_FILES = Object.fromEntries(
    ['dev', 'test', 'uat', 'staging', 'prod'].flatMap(stage => [
      [`gitops/releases/alpha/shop/${stage}.yaml`, `kind: Release\nstage: ${stage}\n`],
      [`gitops/environments/alpha/shop/${stage}.yaml`, `kind: Environment\nstage: ${stage}\n`],
    ]),
  );
  let dir: string;
  let commit: string;
  let tarball: Buffer;
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]);

  beforeAll(() => {
    dir = fs.mkdtempSync(join(os.tmpdir(), 'reader-'));
    git('init', '-q');
    for (const [file, text] of Object.entries(PRODUCT_FILES)) {
      fs.mkdirSync(join(dir, dirname(file)), { recursive: true });
      fs.writeFileSync(join(dir, file), text);
    }
    git('add', '.');
    git('commit', '-q', '-m', 'files');
    commit = git('rev-parse', 'HEAD').toString().trim();
    tarball = git('archive', '--format=tar.gz', `--prefix=refplat-platform-${commit.slice(0, 7)}/`, commit);
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const blobOf = (text: string) => gitBlobSha(Buffer.from(text));
  const blobs = (count: number) => Object.values(PRODUCT_FILES).slice(0, count).map(blobOf);

  /**
   * A GitHub serving the commit's tree (its files `repoBytes` long in all), tarball and blobs;
   * it lists what it is asked for. `heldBlobs` answer once `release` is called; `tarballStatus` fails the tarball.
   */
  function fakeGithub(options: { repoBytes?: number; tarballStatus?: number; heldBlobs?: boolean } = {}) {
    const asked: string[] = [];
    let release = () => {};
    const held = new Promise<void>(resolve => {
      release = resolve;
    });
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    const texts = new Map(Object.values(PRODUCT_FILES).map(text => [blobOf(text), text]));
    const fetch = async (url: string) => {
      const route = new URL(url).pathname.replace('/api/v3/repos/refplat/platform/', '');
      asked.push(route.split('/').slice(0, 2).join('/'));
      if (route.startsWith('git/trees/')) {
        const files = Object.entries(PRODUCT_FILES);
        const size = Math.ceil((options.repoBytes ?? 1_000) / files.length);
        return json({ sha: commit, truncated: false, tree: files.map(([file, text]) => ({ path: file, type: 'blob', sha: blobOf(text), size })) });
      }
      if (route.startsWith('tarball/')) {
        if (options.tarballStatus) {
          return new Response(JSON.stringify({ message: 'Not Found' }), { status: options.tarballStatus, headers: { 'content-type': 'application/json' } });
        }
        return new Response(new Uint8Array(tarball), { status: 200, headers: { 'content-type': 'application/x-gzip' } });
      }
      if (options.heldBlobs) await held;
      const text = texts.get(route.split('/')[2]);
      return json({ sha: route.split('/')[2], encoding: 'base64', content: Buffer.from(text ?? '').toString('base64') });
    };
    const octokit = new Octokit({ baseUrl: 'https://github.test/api/v3', request: { fetch } }) as unknown as GithubClient;
    const cache = CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions');
    const replica = () => new PlatformRepoReader(octokit, cache, { owner: 'refplat', repo: 'platform', branch: 'main' }, ['gitops']);
    return { reader: replica(), replica, asked, release };
  }

  /** The reader has the commit's index, as a view has before it reads the Product's files. */
  async function indexed(github: ReturnType<typeof fakeGithub>) {
    await github.reader.fileIndex(commit);
    github.asked.splice(0);
    return github;
  }

  it(`reads more than ${FEW_BLOBS} uncached files of a small repository through one tarball, then none from GitHub`, async () => {
    const { reader, asked } = await indexed(fakeGithub());
    await reader.prefetchBlobs(commit, blobs(10));
    for (const [file, text] of Object.entries(PRODUCT_FILES)) expect({ file, text: await reader.readBlob(blobOf(text)) }).toEqual({ file, text });
    expect(asked).toEqual([`tarball/${commit}`]);
  });

  it(`reads ${FEW_BLOBS} uncached files one by one: a tarball would cost as much`, async () => {
    const { reader, asked } = await indexed(fakeGithub());
    await reader.prefetchBlobs(commit, blobs(FEW_BLOBS));
    for (const blob of blobs(FEW_BLOBS)) await reader.readBlob(blob);
    expect(asked).toEqual(blobs(FEW_BLOBS).map(() => 'git/blobs'));
  });

  it('reads the files of a repository too large to wait for its tarball one by one', async () => {
    const { reader, asked } = await indexed(fakeGithub({ repoBytes: SMALL_REPO_BYTES + 10 }));
    await reader.prefetchBlobs(commit, blobs(10));
    expect(asked).toEqual([]);
  });

  it('reads the files one by one when the tarball fails', async () => {
    const { reader, asked } = await indexed(fakeGithub({ tarballStatus: 404 }));
    await reader.prefetchBlobs(commit, blobs(10));
    for (const blob of blobs(10)) await reader.readBlob(blob);
    expect(asked).toEqual([`tarball/${commit}`, ...blobs(10).map(() => 'git/blobs')]);
  });

  it('shares one tarball between concurrent callers', async () => {
    const { reader, asked } = await indexed(fakeGithub());
    await Promise.all([reader.prefetchBlobs(commit, blobs(10)), reader.prefetchBlobs(commit, blobs(8))]);
    expect(asked).toEqual([`tarball/${commit}`]);
  });

  it('shares one blob read between concurrent callers', async () => {
    const { reader, asked } = fakeGithub();
    const [blob] = blobs(1);
    expect(await Promise.all([reader.readBlob(blob), reader.readBlob(blob)])).toEqual([PRODUCT_FILES['gitops/releases/alpha/shop/dev.yaml'], PRODUCT_FILES['gitops/releases/alpha/shop/dev.yaml']]);
    expect(asked).toEqual(['git/blobs']);
  });

  it('finishes a blob read whose caller stopped waiting, and keeps it: no later caller sends it again', async () => {
    const { reader, replica, asked, release } = fakeGithub({ heldBlobs: true });
    const [blob] = blobs(1);
    const read = reader.readBlob(blob);
    const gaveUp = await Promise.race([read.then(() => 'answered'), new Promise(resolve => setTimeout(() => resolve('gave up'), 20))]);
    expect(gaveUp).toBe('gave up');

    const sharing = reader.readBlob(blob);
    release();
    await Promise.all([read, sharing]);
    expect(await replica().readBlob(blob)).toBe(PRODUCT_FILES['gitops/releases/alpha/shop/dev.yaml']);
    expect(asked).toEqual(['git/blobs']);
  });
});
