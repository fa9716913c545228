import { execFileSync } from 'child_process';

/** Every `[team, product]` with a Release folder under `gitops/releases` on the simulator's main (its git directory). */
export function productsOnMain(repoDir: string): Array<[team: string, product: string]> {
  const dirs = execFileSync('git', ['--git-dir', repoDir, 'ls-tree', '-d', '-r', '--name-only', 'main', 'gitops/releases'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return dirs
    .split('\n')
    .map(dir => dir.split('/').slice(2))
    .filter((parts): parts is [string, string] => parts.length === 2);
}
