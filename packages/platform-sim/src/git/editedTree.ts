import { RawTreeEntry, TREE_MODE, formatTree, parseTree } from './looseObjects';
import { TreeEdit } from './types';

/** A directory being edited: its entries, the subtrees edits went into loaded as drafts. */
type Draft = Map<string, RawTreeEntry | Draft>;

/** File modes an index holds; other edits (a tree's sha, say) are left to git. */
const FILE_MODES = new Set(['100644', '100755', '120000', '160000']);

/**
 * Whether git would take every edit's path (without leading or trailing
 * slashes) and mode as they are (else git says what is wrong).
 */
export function editsInProcess(edits: TreeEdit[]): boolean {
  return edits.every(
    edit =>
      (edit.sha === null || FILE_MODES.has(edit.mode ?? '100644')) &&
      edit.path
        .split('/')
        .every(part => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git'),
  );
}

/**
 * The tree `base` becomes with `edits` (paths without leading or trailing
 * slashes) applied in order, as git's index makes it (read-tree,
 * update-index --index-info, write-tree): a file replaces a
 * directory at its path and the reverse, removing a path that holds no file
 * changes nothing, and directories left empty go. Only the directories an
 * edit goes into are read and written again.
 */
export async function writeEditedTree(
  base: string | null,
  edits: TreeEdit[],
  readTree: (sha: string) => Promise<Buffer>,
  writeTree: (content: Buffer) => string,
): Promise<string> {
  const load = async (sha: string | null): Promise<Draft> =>
    new Map(sha ? parseTree(await readTree(sha)).map(entry => [entry.name, entry]) : []);
  const root = await load(base);
  for (const edit of edits) {
    const parts = edit.path.split('/');
    const name = parts.pop()!;
    let directory: Draft | undefined = root;
    for (const part of parts) {
      const child: RawTreeEntry | Draft | undefined = directory.get(part);
      if (child instanceof Map) {
        directory = child;
        continue;
      }
      if (edit.sha === null && child?.mode !== TREE_MODE) {
        directory = undefined; // no file at that path to remove
        break;
      }
      const draft = await load(child?.mode === TREE_MODE ? child.sha : null);
      directory.set(part, draft);
      directory = draft;
    }
    if (!directory) continue;
    const current = directory.get(name);
    const holdsDirectory = current instanceof Map || current?.mode === TREE_MODE;
    if (edit.sha !== null) directory.set(name, { mode: edit.mode ?? '100644', name, sha: edit.sha });
    else if (!holdsDirectory) directory.delete(name);
  }
  return written(root, writeTree) ?? writeTree(formatTree([]));
}

/** Writes a draft's new trees, innermost first; undefined for a directory left empty. */
function written(draft: Draft, writeTree: (content: Buffer) => string): string | undefined {
  const entries: RawTreeEntry[] = [];
  for (const [name, child] of draft) {
    if (!(child instanceof Map)) entries.push(child);
    else {
      const sha = written(child, writeTree);
      if (sha) entries.push({ mode: TREE_MODE, name, sha });
    }
  }
  return entries.length > 0 ? writeTree(formatTree(entries)) : undefined;
}
