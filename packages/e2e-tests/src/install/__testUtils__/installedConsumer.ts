import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { npmStepsEnv } from './consumer';

/** Written last into a kept install: a copy interrupted midway is never restored. */
const COMPLETE = '.refplat-complete';
const PARTIAL = '.partial-';
/** Room left on the cache's disk after keeping an install; below it, nothing is kept. */
const ROOM_AFTER_KEEPING_BYTES = 4 * 1024 ** 3;

/**
 * The consumer's own dependencies installed, as an adopter's Backstage has
 * them before the README's steps add the plugins: `npm install` in `dir`,
 * whose files writeConsumer wrote.
 *
 * That install is the same in every run as long as the consumer's files,
 * Node.js and npm are, so the machine keeps its result, as it keeps npm's
 * cache and ccache's: a run restores it with a copy (about 4 CPU-seconds
 * from the page cache, 11 from disk) instead of installing about 100,000
 * files again (about 120 CPU-seconds on a 2-core machine, beside the
 * CPU-bound unit tests). The README's steps then run as written on top of
 * it, as they would in an adopter's Backstage.
 *
 * The copy is keyed by the digest of every file writeConsumer wrote, Node's
 * and npm's versions; only the newest key is kept (about 1.2 GB). Set
 * PROMOTIONS_CONSUMER_CACHE=off to install from scratch.
 */
export function installConsumerDependencies(dir: string): 'restored' | 'installed' {
  const cacheRoot = process.env.PROMOTIONS_CONSUMER_CACHE;
  if (cacheRoot === 'off') {
    npmInstall(dir);
    return 'installed';
  }
  const root = cacheRoot || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'refplat-promotions', 'consumer');
  const kept = path.join(root, consumerKey(dir));
  if (fs.existsSync(path.join(kept, COMPLETE))) {
    execFileSync('cp', ['-a', `${kept}/.`, dir]);
    fs.rmSync(path.join(dir, COMPLETE));
    return 'restored';
  }
  npmInstall(dir);
  keep(dir, root, kept);
  return 'installed';
}

function npmInstall(dir: string) {
  execFileSync('npm', ['install'], {
    cwd: dir,
    env: npmStepsEnv(dir),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 15 * 60_000,
  });
}

/** Every file under `dir` (relative, sorted): what writeConsumer wrote, before any install. */
function filesUnder(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap(entry => {
      const relative = path.join(prefix, entry.name);
      return entry.isDirectory() ? filesUnder(dir, relative) : [relative];
    })
    .sort();
}

function consumerKey(dir: string): string {
  const hash = createHash('sha256');
  hash.update(`node ${process.version}\n`);
  hash.update(`npm ${execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim()}\n`);
  for (const file of filesUnder(dir)) {
    hash.update(`${file}\n`);
    hash.update(fs.readFileSync(path.join(dir, file)));
  }
  return hash.digest('hex').slice(0, 24);
}

/** Keeps a copy of the installed `dir` as `kept`, replacing older keys, where the disk has room. */
function keep(dir: string, root: string, kept: string) {
  fs.mkdirSync(root, { recursive: true });
  const { bavail, bsize } = fs.statfsSync(root);
  const installedBytes = Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
  if (bavail * bsize - installedBytes < ROOM_AFTER_KEEPING_BYTES) return;
  for (const older of fs.readdirSync(root)) {
    const entry = path.join(root, older);
    // Another run's copy in progress stays; one left by a run killed midway goes after an hour.
    const copying = older.includes(PARTIAL) && Date.now() - fs.statSync(entry).mtimeMs < 60 * 60_000;
    if (!copying) fs.rmSync(entry, { recursive: true, force: true });
  }
  const partial = `${kept}${PARTIAL}${process.pid}`;
  execFileSync('cp', ['-a', dir, partial]);
  fs.writeFileSync(path.join(partial, COMPLETE), '');
  try {
    fs.renameSync(partial, kept);
  } catch {
    // Another run kept the same install first.
    fs.rmSync(partial, { recursive: true, force: true });
  }
}
