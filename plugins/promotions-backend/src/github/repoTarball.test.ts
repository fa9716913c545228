import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { gitBlobSha, unpackRepoTarball } from './repoTarball';

describe('repository tarballs', () => {
  let dir: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]);

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tarball-'));
    git('init', '-q');
    fs.mkdirSync(path.join(dir, 'gitops/releases/alpha/shop'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'other'));
    fs.writeFileSync(path.join(dir, 'gitops/releases/alpha/shop/dev.yaml'), 'kind: Release\nnaïve: ü\n');
    fs.writeFileSync(path.join(dir, 'gitops/releases/alpha/shop/empty.yaml'), '');
    fs.writeFileSync(path.join(dir, 'other/readme.md'), 'not watched\n');
    git('add', '.');
    git('commit', '-q', '-m', 'files');
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("gives each file git's own blob sha", () => {
    for (const file of ['gitops/releases/alpha/shop/dev.yaml', 'gitops/releases/alpha/shop/empty.yaml']) {
      const expected = git('hash-object', file).toString().trim();
      expect(gitBlobSha(fs.readFileSync(path.join(dir, file)))).toBe(expected);
    }
  });

  it('unpacks the kept files of a GitHub-style archive, without its top directory', async () => {
    const head = git('rev-parse', 'HEAD').toString().trim();
    const archive = git('archive', '--format=tar.gz', `--prefix=refplat-platform-${head.slice(0, 7)}/`, head);
    const files = await unpackRepoTarball(archive, file => file.startsWith('gitops/'));
    expect([...files.keys()].sort()).toEqual([
      'gitops/releases/alpha/shop/dev.yaml',
      'gitops/releases/alpha/shop/empty.yaml',
    ]);
    expect(files.get('gitops/releases/alpha/shop/dev.yaml')!.toString('utf8')).toBe('kind: Release\nnaïve: ü\n');
    const tree = git('ls-tree', '-r', head, 'gitops').toString();
    for (const [file, content] of files) expect(tree).toContain(`${gitBlobSha(content)}\t${file}`);
  });

  it('rejects bytes that are not a tarball', async () => {
    await expect(unpackRepoTarball(Buffer.from('<html>not found</html>'), () => true)).rejects.toThrow();
  });
});
