import { createHash } from 'crypto';
import { Parser, ReadEntry } from 'tar';

/**
 * Git's object id of a file: sha1 of `blob <size>\0<bytes>`. A file read from
 * an archive gets the same id as in the tree listing, so the blob cache,
 * keyed by that id, serves both.
 */
export function gitBlobSha(content: Buffer): string {
  return createHash('sha1')
    .update(`blob ${content.length}\0`)
    .update(content)
    .digest('hex');
}

/**
 * The regular files of a GitHub repository tarball (gzipped or not) whose
 * path passes `keep`. GitHub puts every entry under one directory,
 * `<owner>-<repo>-<sha7>/`; paths are given without it, as in the tree.
 */
export function unpackRepoTarball(
  bytes: Buffer,
  keep: (path: string) => boolean,
): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        const path = entry.path.split('/').slice(1).join('/');
        if ((entry.type !== 'File' && entry.type !== 'OldFile') || !path || !keep(path)) {
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => files.set(path, Buffer.concat(chunks)));
      },
    });
    parser.on('error', reject);
    parser.on('end', () => resolve(files));
    parser.end(bytes);
  });
}
