import { execFileSync } from 'child_process';
import fs from 'fs';
import path from 'path';

export const REPO_ROOT = path.resolve(__dirname, '../../../../..');

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * The plugin tarballs in `destination`, common first, built and packed as a
 * publisher would (scripts/pack-plugins.sh). When PROMOTIONS_TARBALLS_DIR
 * names tarballs that script already made, they are copied instead:
 * scripts/test.sh packs before the unit tests and runs this test beside
 * them, since a pack rewrites a package.json the tests resolve for a moment.
 */
export function buildAndPack(destination: string): string[] {
  const packed = process.env.PROMOTIONS_TARBALLS_DIR;
  if (!packed) {
    run('bash', ['scripts/pack-plugins.sh', destination], REPO_ROOT);
    return packedTarballs(destination);
  }
  fs.mkdirSync(destination, { recursive: true });
  fs.cpSync(packed, destination, { recursive: true });
  return packedTarballs(destination);
}

/** The tarballs scripts/pack-plugins.sh made in `directory`, in its order (its tarballs.txt). */
function packedTarballs(directory: string): string[] {
  return fs
    .readFileSync(path.join(directory, 'tarballs.txt'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(file => path.join(directory, file));
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
