import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRefFromDisk, readRefs } from './looseAndPackedRefs';

describe('refs read from disk', () => {
  let gitDir: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['--git-dir', gitDir, ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();
  const commit = (message: string) =>
    execFileSync('git', ['--git-dir', gitDir, 'commit-tree', '4b825dc642cb6eb9a060e54bf8d69288fbee4904', '-m', message], {
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' },
    }).trim();
  /** What git itself lists, in readRefs' shape. */
  const gitsOwnList = () =>
    git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/')
      .split('\n')
      .filter(Boolean)
      .map(line => ({ ref: line.split(' ')[0], sha: line.split(' ')[1] }));

  beforeEach(() => {
    gitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'refs-test-'));
    git('init', '--quiet', '--bare', '--initial-branch=main');
  });
  afterEach(() => fs.rmSync(gitDir, { recursive: true, force: true }));

  it('lists nothing in a new repository', () => {
    expect(readRefs(gitDir)).toEqual([]);
  });

  it('lists what git lists: packed refs, loose refs over packed ones, nested names, no deleted ones', () => {
    const [first, second, third] = ['one', 'two', 'three'].map(commit);
    git('update-ref', 'refs/heads/main', first);
    git('update-ref', 'refs/heads/promote/alpha/shop/test-1', first);
    git('update-ref', 'refs/tags/v1', second);
    git('update-ref', 'refs/heads/gone', second);
    git('pack-refs', '--all');
    git('update-ref', 'refs/heads/main', third); // loose now, over its packed value
    git('update-ref', 'refs/heads/promote/alpha/shop/uat-2', second);
    git('update-ref', '-d', 'refs/heads/gone'); // removed from packed-refs too
    git('symbolic-ref', 'refs/heads/alias', 'refs/heads/main');

    expect(readRefs(gitDir)).toEqual(gitsOwnList());
    expect(readRefs(gitDir).find(entry => entry.ref === 'refs/heads/main')?.sha).toBe(third);
    expect(readRefs(gitDir).map(entry => entry.ref)).not.toContain('refs/heads/gone');
    // One ref read alone answers what the listing says of it.
    for (const { ref, sha } of gitsOwnList()) expect(readRefFromDisk(gitDir, ref)).toBe(sha);
    expect(readRefFromDisk(gitDir, 'refs/heads/gone')).toBeNull();
    expect(readRefFromDisk(gitDir, 'refs/heads/promote')).toBeNull(); // a directory of refs, not a ref
  });

  it('skips a ref git is writing (its lock file)', () => {
    git('update-ref', 'refs/heads/main', commit('one'));
    fs.writeFileSync(path.join(gitDir, 'refs/heads/next.lock'), `${commit('two')}\n`);
    expect(readRefs(gitDir).map(entry => entry.ref)).toEqual(['refs/heads/main']);
  });
});
