import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { ObjectType } from './types';

/**
 * Writes git objects into a repository's `objects/` as loose objects, the
 * format git itself writes (the zlib-deflated `<type> <size>\0<content>`,
 * named by its SHA-1), so that a commit costs no git process. The simulator
 * commits on most GitHub writes; a git process for each blob, the index,
 * the tree and the commit was most of its CPU. An object already stored
 * (loose or packed) is stored again only as a loose copy, which git allows.
 */
export function writeLooseObject(gitDir: string, type: ObjectType, content: Buffer): string {
  const stored = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  const sha = createHash('sha1').update(stored).digest('hex');
  const directory = path.join(gitDir, 'objects', sha.slice(0, 2));
  const file = path.join(directory, sha.slice(2));
  if (fs.existsSync(file)) return sha;
  fs.mkdirSync(directory, { recursive: true });
  // Written aside and renamed, as git does: a reader sees the whole object or none.
  const temporary = path.join(directory, `tmp_obj_${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(temporary, deflateSync(stored), { mode: 0o444 });
  fs.renameSync(temporary, file);
  return sha;
}

/** One entry of a tree object: `mode` as stored (`40000` for a tree). */
export interface RawTreeEntry {
  mode: string;
  name: string;
  sha: string;
}

export const TREE_MODE = '40000';

/** A tree object's entries. */
export function parseTree(content: Buffer): RawTreeEntry[] {
  const entries: RawTreeEntry[] = [];
  let offset = 0;
  while (offset < content.length) {
    const space = content.indexOf(0x20, offset);
    const nul = content.indexOf(0, space);
    entries.push({
      mode: content.toString('latin1', offset, space),
      name: content.toString('utf8', space + 1, nul),
      sha: content.toString('hex', nul + 1, nul + 21),
    });
    offset = nul + 21;
  }
  return entries;
}

/** A tree object's bytes, its entries in git's order (a tree sorts as if its name ended in `/`). */
export function formatTree(entries: RawTreeEntry[]): Buffer {
  const sortKey = (entry: RawTreeEntry) =>
    Buffer.from(entry.mode === TREE_MODE ? `${entry.name}/` : entry.name);
  const sorted = [...entries].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  return Buffer.concat(
    sorted.flatMap(entry => [
      Buffer.from(`${entry.mode} ${entry.name}\0`),
      Buffer.from(entry.sha, 'hex'),
    ]),
  );
}
