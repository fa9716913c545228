import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitEnvironment } from './gitExec';
import { GitRepo } from './gitRepo';
import { GitIdentity, TreeEdit } from './types';

/**
 * The simulator writes blobs, trees and commits itself and reads objects
 * through one `git cat-file --batch`: git must find them the objects it would
 * have written, byte for byte, and read them back.
 */
describe('GitRepo objects written and read without a git process each', () => {
  let gitDir: string;
  let repo: GitRepo;
  const git = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
    execFileSync('git', ['--git-dir', gitDir, ...args], {
      encoding: 'utf8',
      input: options.input,
      env: gitEnvironment(options.env),
    }).trim();
  /** The tree git's index makes of `base` with `edits` (what the simulator did with git). */
  const gitsTree = (base: string | null, edits: TreeEdit[]) => {
    const env = { GIT_INDEX_FILE: path.join(gitDir, 'test-index') };
    fs.rmSync(env.GIT_INDEX_FILE, { force: true });
    git(base ? ['read-tree', base] : ['read-tree', '--empty'], { env });
    const trimmed = (edit: TreeEdit) => edit.path.replace(/^\/+|\/+$/g, ''); // as the simulator always sent them
    const lines = edits.map(edit =>
      edit.sha === null ? `0 ${'0'.repeat(40)}\t${trimmed(edit)}` : `${edit.mode ?? '100644'} ${edit.sha}\t${trimmed(edit)}`,
    );
    if (lines.length > 0) git(['update-index', '--index-info'], { env, input: `${lines.join('\n')}\n` });
    return git(['write-tree'], { env });
  };

  beforeEach(async () => {
    gitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'objects-test-'));
    repo = await GitRepo.open(gitDir);
  });
  afterEach(() => fs.rmSync(gitDir, { recursive: true, force: true }));

  it('writes a blob under the id git gives it, and git reads it back', async () => {
    const sha = await repo.writeBlob('image: shop@sha256:abc\n');
    expect(sha).toBe(git(['hash-object', '--stdin'], { input: 'image: shop@sha256:abc\n' }));
    expect(git(['cat-file', 'blob', sha])).toBe('image: shop@sha256:abc');
    expect(await repo.writeBlob('image: shop@sha256:abc\n')).toBe(sha);
  });

  it('edits a tree as git index does: nested paths, files over directories and back, removals, emptied directories', async () => {
    const [a, b, c] = await Promise.all(['a\n', 'b\n', 'c\n'].map(text => repo.writeBlob(text)));
    const base = gitsTree(null, [
      { path: 'gitops/releases/alpha/shop/dev.yaml', sha: a },
      { path: 'gitops/releases/alpha/shop/test.yaml', sha: b },
      { path: 'gitops/releases/alpha/web/dev.yaml', sha: c },
      { path: 'gitops/releases-notes', sha: a },
      { path: 'README.md', sha: c },
      { path: 'bin/run', sha: a, mode: '100755' },
    ]);
    const editSets: TreeEdit[][] = [
      [{ path: 'gitops/releases/alpha/shop/dev.yaml', sha: c }],
      [{ path: 'gitops/releases/beta/api/dev.yaml', sha: a }, { path: '/docs/new.md/', sha: b }],
      [{ path: 'gitops/releases/alpha/web/dev.yaml', sha: null }],
      [{ path: 'gitops/releases/alpha/shop', sha: null }, { path: 'missing/file', sha: null }],
      [{ path: 'README.md/inside', sha: a }, { path: 'bin', sha: b }],
      [{ path: 'gitops/releases', sha: a }, { path: 'gitops/releases/x', sha: b }],
      [{ path: 'README.md', sha: null }, { path: 'bin/run', sha: null }, { path: 'gitops/releases-notes', sha: null }],
    ];
    for (const edits of editSets) {
      const ours = await repo.writeTree(base, edits);
      expect(git(['ls-tree', '-r', '-t', ours])).toBe(git(['ls-tree', '-r', '-t', gitsTree(base, edits)]));
    }
    expect(await repo.writeTree(null, [])).toBe(gitsTree(null, []));
    const everything = git(['ls-tree', '-r', '--name-only', base]).split('\n');
    const emptied = await repo.writeTree(base, everything.map(file => ({ path: file, sha: null })));
    expect(emptied).toBe(gitsTree(base, everything.map(file => ({ path: file, sha: null }))));
    expect(git(['fsck', '--strict', '--no-dangling'])).toBe('');
  });

  it('writes a commit as git commit-tree does, for the dates and names GitHub sends', async () => {
    const tree = await repo.writeTree(null, [{ path: 'a', sha: await repo.writeBlob('a') }]);
    const identities: GitIdentity[] = [
      { name: 'promotions[bot]', email: 'bot@users.noreply.github.com', date: '2026-12-04T06:00:00Z' },
      { name: ' Ann O\'Neil. ', email: '<ann@example.com>', date: '2026-12-04T06:00:00.123+02:00' },
      { name: 'Zoë <z>', email: 'zoe@example.com', date: '2026-01-31T23:59:59-0530' },
    ];
    let parents: string[] = [];
    for (const identity of identities) {
      const commit = { tree, parents, message: '\nPromote shop to test  \n\nBody line\n\n', author: identity, committer: identities[0] };
      const sha = await repo.writeCommit(commit);
      const env = {
        GIT_AUTHOR_NAME: identity.name,
        GIT_AUTHOR_EMAIL: identity.email,
        GIT_AUTHOR_DATE: identity.date,
        GIT_COMMITTER_NAME: identities[0].name,
        GIT_COMMITTER_EMAIL: identities[0].email,
        GIT_COMMITTER_DATE: identities[0].date,
      };
      const args = ['commit-tree', tree, ...parents.flatMap(parent => ['-p', parent])];
      expect(sha).toBe(git(args, { env, input: commit.message }));
      const [tree_, parents_, an, ae, ad, cn, ce, cd, message] = execFileSync(
        'git',
        ['--git-dir', gitDir, 'log', '-1', '--format=%T%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B', sha],
        { encoding: 'utf8' },
      ).split('\x1f');
      expect(await repo.readCommit(sha)).toEqual({
        sha,
        tree: tree_,
        parents: parents_ ? parents_.split(' ') : [],
        author: { name: an, email: ae, date: ad },
        committer: { name: cn, email: ce, date: cd },
        message: message.replace(/\n+$/, ''),
      });
      parents = [sha];
    }
    expect(git(['fsck', '--strict', '--no-dangling'])).toBe('');
  });

  it('leaves to git what it must refuse or parse itself', async () => {
    const tree = await repo.writeTree(null, [{ path: 'a', sha: await repo.writeBlob('a') }]);
    const author = { name: 'Ann', email: 'ann@example.com', date: '1767225600 +0000' };
    const sha = await repo.writeCommit({ tree, parents: [], message: 'm', author });
    expect(git(['log', '-1', '--format=%at %s', sha])).toBe('1767225600 m');
    await expect(repo.writeCommit({ tree: sha, parents: [], message: 'm', author })).rejects.toThrow(/commit-tree/);
    const gitPath = [{ path: '.git/config', sha: await repo.writeBlob('b') }];
    expect(await repo.writeTree(tree, gitPath)).toBe(gitsTree(tree, gitPath));
  });

  it('reads objects, loose or packed, and says when there is none', async () => {
    const packed = await repo.writeBlob('in a pack\n');
    const tree = await repo.writeTree(null, [{ path: 'a', sha: packed }]);
    const author = { name: 'Ann', email: 'ann@example.com', date: '2026-12-04T06:00:00Z' };
    git(['update-ref', 'refs/heads/main', await repo.writeCommit({ tree, parents: [], message: 'm', author })]);
    git(['repack', '-a', '-d', '-q']);
    expect(fs.existsSync(path.join(gitDir, 'objects', packed.slice(0, 2), packed.slice(2)))).toBe(false);
    const loose = await repo.writeBlob('loose\n');
    expect((await repo.readBlob(packed)).toString()).toBe('in a pack\n');
    expect(await repo.objectType(tree)).toBe('tree');
    expect(await repo.objectType('1'.repeat(40))).toBeNull();
    expect(await repo.objectType('main')).toBeNull();
    await expect(repo.readBlob('1'.repeat(40))).rejects.toThrow(/cat-file/);
    await expect(repo.readBlob(tree)).rejects.toThrow(/cat-file/);
    const reads = await Promise.all([loose, packed, loose].map(sha => repo.readBlob(sha)));
    expect(reads.map(read => read.toString())).toEqual(['loose\n', 'in a pack\n', 'loose\n']);
  });

  it('finds entries and peels revisions from the objects as ls-tree and rev-parse do', async () => {
    const blob = await repo.writeBlob('kind: Release\n');
    const tree = await repo.writeTree(null, [
      { path: 'gitops/releases/alpha/shop/dev.yaml', sha: blob },
      { path: 'bin/run', sha: blob, mode: '100755' },
    ]);
    const author = { name: 'Ann', email: 'ann@example.com', date: '2026-12-04T06:00:00Z' };
    const commit = await repo.writeCommit({ tree, parents: [], message: 'm', author });
    git(['update-ref', 'refs/heads/main', commit]);
    /** What `git ls-tree -l` says of one path, in entryAt's shape. */
    const gitsEntry = (treeish: string, file: string) => {
      const line = git(['ls-tree', '-l', treeish, '--', file]).split('\n').find(row => row.endsWith(`\t${file}`));
      if (!line) return null;
      const [mode, type, sha, size] = line.split('\t')[0].split(/\s+/);
      return { mode, type, sha, path: file, size: size === '-' ? undefined : Number(size) };
    };
    for (const treeish of [commit, tree, 'main']) {
      for (const file of ['gitops/releases/alpha/shop/dev.yaml', 'gitops/releases', 'bin/run', 'bin/run/x', 'missing', 'gitops/nope/x']) {
        expect(await repo.entryAt(treeish, file)).toEqual(gitsEntry(treeish, file));
      }
    }
    expect(await repo.resolveTree(commit)).toBe(tree);
    expect(await repo.resolveTree(tree)).toBe(tree);
    expect(await repo.resolveCommit(commit)).toBe(commit);
    expect(await repo.resolveCommit('refs/heads/main')).toBe(commit);
    expect(await repo.resolveCommit(tree)).toBeNull();
    expect(await repo.resolveTree(blob)).toBeNull();
    expect(await repo.resolveCommit('2'.repeat(40))).toBeNull();
  });
});
