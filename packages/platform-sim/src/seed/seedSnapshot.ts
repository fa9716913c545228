import fs from 'node:fs';
import path from 'node:path';
import type { SimOptions } from '../options';

/** How long a snapshot stands for a fresh seed: the seed's dates are relative to its start. */
const SNAPSHOT_MAX_AGE_MS = 10 * 60 * 1000;

interface Snapshot {
  takenAt: number;
  /** Every file of the seeded data dir, by its path in it. */
  files: Map<string, Buffer>;
}

/**
 * The seeded repositories of this process's last simulator started with the same seed inputs, as
 * files. Seeding is some 250 git commands one after another (seconds on a busy machine) and
 * gives the same repositories each time, but for dates moved by less than the snapshot's age:
 * test suites that start a simulator per test copy them instead.
 */
const snapshots = new Map<string, Snapshot>();

/** What the seeded repositories depend on: the platform repo's name, its users, the canary, the Products. */
export function seedSnapshotKey(options: SimOptions): string {
  const { owner, repo, tokens, canaryWeights, imageNaming, demoProducts } = options;
  return JSON.stringify({ owner, repo, tokens, canaryWeights, imageNaming, demoProducts });
}

/** Writes the snapshot for `key` into the empty `dataDir`; false when there is none fresh enough. */
export function restoreSeedSnapshot(key: string, dataDir: string, now = Date.now()): boolean {
  const snapshot = snapshots.get(key);
  if (!snapshot || now - snapshot.takenAt > SNAPSHOT_MAX_AGE_MS) return false;
  for (const [file, content] of snapshot.files) {
    const target = path.join(dataDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
  return true;
}

/** Keeps the files of the just-seeded `dataDir` for the next simulator with `key`. */
export function keepSeedSnapshot(key: string, dataDir: string, now = Date.now()): void {
  const files = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    files.set(path.relative(dataDir, file), fs.readFileSync(file));
  }
  snapshots.set(key, { takenAt: now, files });
}
