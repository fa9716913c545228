import { execFileSync } from 'child_process';
import fs from 'fs';
import path from 'path';

export const REPO_ROOT = path.resolve(__dirname, '../../../../..');

/** The publishable packages, common first: the others depend on it. */
export const PLUGIN_DIRS = [
  'promotions-common',
  'promotions-node',
  'promotions-backend',
  'promotions',
  // Packed for the tarball checks only; the consumer does not install the scaffolder.
  'scaffolder-backend-module-promotions',
];

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Builds and packs the plugin packages as a publisher would (the
 * README's Install section): type declarations, `backstage-cli package
 * build`, then `npm pack`, whose prepack points the entry points at dist.
 */
export function buildAndPack(destination: string): string[] {
  fs.mkdirSync(destination, { recursive: true });
  run('npx', ['tsc'], REPO_ROOT);
  return PLUGIN_DIRS.map(dir => {
    const packageDir = path.join(REPO_ROOT, 'plugins', dir);
    run('npx', ['backstage-cli', 'package', 'build'], packageDir);
    const name = run(
      'npm',
      ['pack', '--silent', '--pack-destination', destination],
      packageDir,
    )
      .trim()
      .split('\n')
      .pop()!;
    return path.join(destination, name);
  });
}

/** The files in a tarball, without the `package/` prefix npm gives them. */
export function tarballFiles(tarball: string): string[] {
  return run('tar', ['tzf', tarball], path.dirname(tarball))
    .split('\n')
    .filter(line => line && !line.endsWith('/'))
    .map(line => line.replace(/^package\//, ''));
}

/** One file's text inside a tarball (`README.md`). */
export function tarballFile(tarball: string, file: string): string {
  return run('tar', ['xzOf', tarball, `package/${file}`], path.dirname(tarball));
}

/** The package.json inside a tarball, as the registry would serve it. */
export function tarballManifest(tarball: string): Record<string, any> {
  return JSON.parse(tarballFile(tarball, 'package.json'));
}
