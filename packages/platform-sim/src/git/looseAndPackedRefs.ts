import fs from 'node:fs';
import path from 'node:path';

/** A ref and the object it names. */
export interface RefEntry {
  ref: string;
  sha: string;
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * Every ref under `refs/` of a bare repository in git's files backend, read
 * from disk as `git for-each-ref` reads it: loose ref files override
 * `packed-refs`, and the list is sorted by name. The simulator lists refs on
 * almost every GitHub request; a git process per listing was most of its
 * git traffic. Git writes each ref file through a lock file and a rename, so
 * a read sees a whole ref or none. Symbolic refs inside `refs/` (which the
 * simulator never writes) resolve to the ref they name.
 */
export function readRefs(gitDir: string): RefEntry[] {
  const refs = new Map<string, string>(readPackedRefs(gitDir));
  const symbolic = new Map<string, string>();
  for (const [ref, content] of readLooseRefs(gitDir, 'refs')) {
    if (SHA.test(content)) refs.set(ref, content);
    else if (content.startsWith('ref: ')) symbolic.set(ref, content.slice(5).trim());
  }
  for (const [ref, target] of symbolic) {
    const sha = refs.get(target);
    if (sha) refs.set(ref, sha);
  }
  return [...refs]
    .map(([ref, sha]) => ({ ref, sha }))
    .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

/**
 * The object one full ref name points to, or null: its loose file where there
 * is one, else its line in `packed-refs`, as git resolves it. Reading one ref
 * reads one file, where listing them reads every branch's.
 */
export function readRefFromDisk(gitDir: string, ref: string): string | null {
  const content = readIfPresent(path.join(gitDir, ref))?.trim();
  if (content !== undefined && SHA.test(content)) return content;
  if (content?.startsWith('ref: ')) return readRefFromDisk(gitDir, content.slice(5).trim());
  return readPackedRefs(gitDir).find(([name]) => name === ref)?.[1] ?? null;
}

function readPackedRefs(gitDir: string): Array<[string, string]> {
  const text = readIfPresent(path.join(gitDir, 'packed-refs'));
  if (text === undefined) return [];
  return text
    .split('\n')
    .map(line => line.split(' '))
    .filter(([sha, ref]) => SHA.test(sha) && ref?.startsWith('refs/'))
    .map(([sha, ref]) => [ref, sha]);
}

function* readLooseRefs(gitDir: string, dir: string): Generator<[string, string]> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(gitDir, dir), { withFileTypes: true });
  } catch {
    return; // a directory git removed while we walked
  }
  for (const entry of entries) {
    const ref = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* readLooseRefs(gitDir, ref);
    else if (entry.isFile() && !entry.name.endsWith('.lock')) {
      const content = readIfPresent(path.join(gitDir, ref));
      if (content !== undefined) yield [ref, content.trim()];
    }
  }
}

function readIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined; // deleted between the listing and the read
  }
}
