import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { CatFileBatch, GitObject } from './catFileBatch';
import { editsInProcess, writeEditedTree } from './editedTree';
import {
  GitCommandError,
  GitExecOptions,
  GitExecResult,
  gitEnvironment,
  gitText,
  runGit,
} from './gitExec';
import { readRefFromDisk, readRefs } from './looseAndPackedRefs';
import { formatCommit, parseCommitObject } from './commitObject';
import { TREE_MODE, parseTree, writeLooseObject } from './looseObjects';
import {
  CommitInfo,
  EMPTY_TREE_SHA,
  FileChange,
  FileChangeStatus,
  GitIdentity,
  ObjectType,
  TreeEdit,
  TreeEntry,
  ZERO_SHA,
} from './types';

const FIELD = '\x1f';
const RECORD = '\x1e';
// %B is the raw message; fields are split on unit separators, commits on record separators.
const COMMIT_FORMAT = `${['%H', '%T', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x1f')}%x1e`;
/** Answers kept of reads that name objects by id (blobs, trees, commits, diffs between them). */
const KEPT_OBJECT_READS = 4_000;

/**
 * A bare git repository driven only through plumbing commands.
 * It knows nothing about GitHub; the GitHub routes translate to these calls.
 * Callers serialize writes (see Mutex); reads may run concurrently.
 */
/** A ref moved (created, updated or deleted: ZERO_SHA on the missing side). */
export interface RefUpdate {
  ref: string;
  before: string;
  after: string;
}

export class GitRepo {
  private refsVersion = 0;
  private readonly refListeners: Array<(update: RefUpdate) => void> = [];
  // A read whose every revision is an object id reads objects, and objects never change:
  // its answer is kept instead of asking git again (a git process each, most of a test's CPU).
  private readonly objectReads = new LRUCache<string, GitExecResult>({ max: KEPT_OBJECT_READS });
  private readonly objects = new LRUCache<string, GitObject>({ max: KEPT_OBJECT_READS });
  private readonly objectReader: CatFileBatch;

  private constructor(readonly gitDir: string) {
    this.objectReader = new CatFileBatch(gitDir, gitEnvironment());
  }

  /** Opens the repository at gitDir, creating an empty bare one if needed. */
  static async open(gitDir: string): Promise<GitRepo> {
    if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
      fs.mkdirSync(gitDir, { recursive: true });
      await runGit(gitDir, [
        'init',
        '--quiet',
        '--bare',
        '--initial-branch=main',
      ]);
    }
    return new GitRepo(gitDir);
  }

  /** Increases on every ref write made through this object (cheap change detection). */
  get version(): number {
    return this.refsVersion;
  }

  /** Called after every ref write made through this object (what GitHub turns into push events). */
  onRefUpdate(listener: (update: RefUpdate) => void): void {
    this.refListeners.push(listener);
  }

  // ---- reading -------------------------------------------------------------

  /** The commit a revision (branch, ref, sha) points to, or null. */
  async resolveCommit(rev: string): Promise<string | null> {
    return this.resolve(`${rev}^{commit}`);
  }

  /** The tree a revision (commit or tree) points to, or null. */
  async resolveTree(rev: string): Promise<string | null> {
    return this.resolve(`${rev}^{tree}`);
  }

  private async resolve(spec: string): Promise<string | null> {
    if (!isSafeRevision(spec)) return null;
    const [, revision, peel] = /^(.*?)(\^\{(?:commit|tree)\})?$/.exec(spec)!;
    // A full ref name is read from disk, so that what it names is an object id whose answer keeps.
    const id = revision.startsWith('refs/') ? (await this.readRef(revision)) ?? revision : revision;
    const peeled = peel && isHexSha(id) ? await this.peel(id, peel) : undefined;
    if (peeled !== undefined) return peeled;
    const { stdout, exitCode } = await this.read(
      ['rev-parse', '--verify', '--quiet', `${id}${peel ?? ''}`],
      isHexSha(id),
      { okExitCodes: [1, 128] },
    );
    return exitCode === 0 ? stdout.toString('utf8').trim() : null;
  }

  /** A commit's or tree's id peeled to `peel` from the object itself; undefined for a tag (git peels it). */
  private async peel(id: string, peel: string): Promise<string | null | undefined> {
    const object = await this.readObject(id);
    if (!object) return null;
    if (object.type === 'commit') {
      // A commit object begins `tree <id>\n`.
      return peel === '^{commit}' ? id : object.content.toString('latin1', 5, 45);
    }
    if (object.type === 'tree') return peel === '^{tree}' ? id : null;
    if (object.type === 'blob') return null;
    return undefined;
  }

  async objectType(sha: string): Promise<ObjectType | null> {
    return (await this.readObject(sha))?.type ?? null;
  }

  async readBlob(sha: string): Promise<Buffer> {
    return this.readObjectOf('blob', sha);
  }

  /** An object by id, or null when there is none. */
  private async readObject(sha: string): Promise<GitObject | null> {
    if (!isHexSha(sha)) return null;
    const kept = this.objects.get(sha);
    if (kept) return kept;
    const object = await this.objectReader.read(sha);
    if (object) this.objects.set(sha, object);
    return object;
  }

  /** An object's bytes, failing as `git cat-file <type>` does when it is missing or of another type. */
  private async readObjectOf(type: ObjectType, sha: string): Promise<Buffer> {
    const object = await this.readObject(sha);
    if (object?.type !== type) {
      throw new GitCommandError(['cat-file', type, sha], 128, `fatal: git cat-file ${sha}: bad file`);
    }
    return object.content;
  }

  /** Lists a tree. `dir` '' is the root; `recursive` lists blobs at any depth. */
  async listTree(
    treeish: string,
    options: { dir?: string; recursive?: boolean; withTrees?: boolean } = {},
  ): Promise<TreeEntry[]> {
    const args = ['ls-tree', '-l', '-z'];
    if (options.recursive) args.push('-r');
    if (options.recursive && options.withTrees) args.push('-t');
    args.push(treeish);
    const dir = trimSlashes(options.dir ?? '');
    if (dir) args.push('--', `${dir}/`);
    const { stdout } = await this.read(args, isHexSha(treeish));
    const prefix = dir ? `${dir}/` : '';
    return parseLsTree(stdout).map(entry => ({
      ...entry,
      path:
        !options.recursive && prefix && entry.path.startsWith(prefix)
          ? entry.path.slice(prefix.length)
          : entry.path,
    }));
  }

  /** The entry at an exact path in a commit or tree, or null. */
  async entryAt(treeish: string, filePath: string): Promise<TreeEntry | null> {
    const clean = trimSlashes(filePath);
    if (!clean) return null;
    const root = isHexSha(treeish) ? await this.resolveTree(treeish) : null;
    if (root) {
      const entry = await this.entryInTree(root, clean.split('/'));
      return entry && { ...entry, path: clean };
    }
    const { stdout } = await this.read(
      ['ls-tree', '-l', '-z', treeish, '--', clean],
      isHexSha(treeish),
    );
    return parseLsTree(stdout).find(entry => entry.path === clean) ?? null;
  }

  /** The entry at `parts` below a tree, read from the tree objects along the path, as ls-tree -l gives it. */
  private async entryInTree(tree: string, parts: string[]): Promise<Omit<TreeEntry, 'path'> | null> {
    const [name, ...rest] = parts;
    const entry = parseTree(await this.readObjectOf('tree', tree)).find(candidate => candidate.name === name);
    if (!entry) return null;
    if (rest.length > 0) return entry.mode === TREE_MODE ? this.entryInTree(entry.sha, rest) : null;
    if (entry.mode === TREE_MODE) return { mode: '040000', type: 'tree', sha: entry.sha };
    if (entry.mode === '160000') return { mode: entry.mode, type: 'commit', sha: entry.sha };
    const size = (await this.readObjectOf('blob', entry.sha)).length;
    return { mode: entry.mode, type: 'blob', sha: entry.sha, size };
  }

  /** A file's blob sha and bytes at a revision, or null when absent. */
  async readFile(
    rev: string,
    filePath: string,
  ): Promise<{ sha: string; content: Buffer } | null> {
    const entry = await this.entryAt(rev, filePath);
    if (!entry || entry.type !== 'blob') return null;
    return { sha: entry.sha, content: await this.readBlob(entry.sha) };
  }

  async readCommit(sha: string): Promise<CommitInfo | null> {
    const resolved = await this.resolveCommit(sha);
    if (!resolved) return null;
    return parseCommitObject(resolved, await this.readObjectOf('commit', resolved));
  }

  /** Commits reachable from `from`, newest first, optionally only those touching `filePath` (like git log -- path). */
  async log(
    from: string,
    options: { path?: string; until?: string } = {},
  ): Promise<CommitInfo[]> {
    const args = ['log', `--format=${COMMIT_FORMAT}`, from];
    if (options.until) args.push(`^${options.until}`);
    const clean = options.path ? trimSlashes(options.path) : '';
    if (clean) args.push('--', clean);
    const { stdout } = await this.read(
      args,
      isHexSha(from) && (!options.until || isHexSha(options.until)),
    );
    return parseCommits(stdout);
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const { exitCode } = await this.read(
      ['merge-base', '--is-ancestor', ancestor, descendant],
      isHexSha(ancestor) && isHexSha(descendant),
      { okExitCodes: [1] },
    );
    return exitCode === 0;
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const { stdout, exitCode } = await this.read(
      ['merge-base', a, b],
      isHexSha(a) && isHexSha(b),
      { okExitCodes: [1] },
    );
    return exitCode === 0 ? stdout.toString('utf8').trim() : null;
  }

  /** How many commits `head` has that `base` lacks, and the reverse. */
  async aheadBehind(
    base: string,
    head: string,
  ): Promise<{ ahead: number; behind: number }> {
    const { stdout } = await this.read(
      ['rev-list', '--left-right', '--count', `${base}...${head}`],
      isHexSha(base) && isHexSha(head),
    );
    const text = stdout.toString('utf8').trim();
    const [behind, ahead] = text.split(/\s+/).map(Number);
    return { ahead, behind };
  }

  /**
   * Three-way merge of two commits without a worktree (git merge-tree --write-tree).
   * Returns the merged tree, or conflicts: true.
   */
  async mergeTrees(
    ours: string,
    theirs: string,
  ): Promise<{ tree: string | null; conflicts: boolean }> {
    const { stdout, exitCode } = await runGit(
      this.gitDir,
      ['merge-tree', '--write-tree', '--no-messages', ours, theirs],
      { okExitCodes: [1] },
    );
    if (exitCode === 1) return { tree: null, conflicts: true };
    return {
      tree: stdout.toString('utf8').split('\n')[0].trim(),
      conflicts: false,
    };
  }

  /** Files changed between two commits/trees (null base = empty tree), with GitHub-style patches. */
  async diff(base: string | null, head: string): Promise<FileChange[]> {
    const from = base ?? EMPTY_TREE_SHA;
    const fixed = isHexSha(from) && isHexSha(head);
    const [raw, numstat, patch] = await Promise.all([
      this.read(['diff-tree', '-r', '-z', '--no-renames', '--raw', from, head], fixed),
      this.read(['diff-tree', '-r', '-z', '--no-renames', '--numstat', from, head], fixed),
      this.read(['diff-tree', '-r', '--no-renames', '-p', '--no-color', from, head], fixed),
    ]);
    const counts = parseNumstat(numstat.stdout);
    const patches = splitPatch(patch.stdout.toString('utf8'));
    return parseRawDiff(raw.stdout).map(change => ({
      ...change,
      additions: counts.get(change.filename)?.additions ?? 0,
      deletions: counts.get(change.filename)?.deletions ?? 0,
      patch: patches.get(change.filename),
    }));
  }

  /** All refs whose full name starts with `prefix` (a plain string prefix, like GitHub's matching-refs). */
  async listRefs(
    prefix = 'refs/',
  ): Promise<Array<{ ref: string; sha: string }>> {
    return readRefs(this.gitDir).filter(entry => entry.ref.startsWith(prefix));
  }

  /** The sha a fully qualified ref points to, or null. */
  async readRef(ref: string): Promise<string | null> {
    if (!ref.startsWith('refs/') || !isSafeRevision(ref)) return null;
    return readRefFromDisk(this.gitDir, ref);
  }

  /** Runs a read; `ofObjectsOnly` when it names every revision by object id, so its answer keeps. */
  private async read(
    args: string[],
    ofObjectsOnly: boolean,
    options: GitExecOptions = {},
  ): Promise<GitExecResult> {
    const key = args.join('\0');
    const kept = ofObjectsOnly ? this.objectReads.get(key) : undefined;
    if (kept) return kept;
    const answer = await runGit(this.gitDir, args, options);
    // A failed read (an object not written yet) may answer otherwise later.
    if (ofObjectsOnly && answer.exitCode === 0) this.objectReads.set(key, answer);
    return answer;
  }

  // ---- writing (callers hold the write mutex) -------------------------------

  async writeBlob(content: Buffer | string): Promise<string> {
    return writeLooseObject(this.gitDir, 'blob', Buffer.from(content));
  }

  /**
   * Applies edits on top of a base tree and writes the result, using a
   * throwaway index file so that nothing touches a worktree or the default index.
   */
  async writeTree(baseTree: string | null, givenEdits: TreeEdit[]): Promise<string> {
    const edits = givenEdits.map(edit => ({ ...edit, path: trimSlashes(edit.path) }));
    const baseIsTree = baseTree === null || (await this.objectType(baseTree)) === 'tree';
    if (baseIsTree && editsInProcess(edits)) {
      return writeEditedTree(
        baseTree,
        edits,
        sha => this.readObjectOf('tree', sha),
        content => writeLooseObject(this.gitDir, 'tree', content),
      );
    }
    // Paths or modes git may refuse: git's index says what is wrong with them.
    const indexDir = fs.mkdtempSync(
      path.join(os.tmpdir(), 'platform-sim-index-'),
    );
    const env = { GIT_INDEX_FILE: path.join(indexDir, 'index') };
    try {
      if (baseTree) {
        await runGit(this.gitDir, ['read-tree', baseTree], { env });
      } else {
        await runGit(this.gitDir, ['read-tree', '--empty'], { env });
      }
      if (edits.length > 0) {
        // --index-info takes "mode sha\tpath"; mode 0 removes the path.
        const lines = edits.map(edit =>
          edit.sha === null
            ? `0 ${ZERO_SHA}\t${edit.path}`
            : `${edit.mode ?? '100644'} ${edit.sha}\t${edit.path}`,
        );
        await runGit(this.gitDir, ['update-index', '--index-info'], {
          env,
          input: `${lines.join('\n')}\n`,
        });
      }
      return await gitText(this.gitDir, ['write-tree'], { env });
    } finally {
      fs.rmSync(indexDir, { recursive: true, force: true });
    }
  }

  async writeCommit(commit: {
    tree: string;
    parents: string[];
    message: string;
    author: GitIdentity;
    committer?: GitIdentity;
  }): Promise<string> {
    const committer = commit.committer ?? commit.author;
    const message = commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`;
    const object = formatCommit({ ...commit, committer, message });
    if (object && (await this.objectType(commit.tree)) === 'tree') {
      const parentTypes = await Promise.all(commit.parents.map(parent => this.objectType(parent)));
      if (parentTypes.every(type => type === 'commit')) {
        return writeLooseObject(this.gitDir, 'commit', object);
      }
    }
    // A date git must parse, or a tree or parent that is not one: git says what is wrong.
    const args = ['commit-tree', commit.tree];
    for (const parent of commit.parents) args.push('-p', parent);
    return gitText(this.gitDir, args, {
      input: message,
      env: {
        GIT_AUTHOR_NAME: commit.author.name,
        GIT_AUTHOR_EMAIL: commit.author.email,
        GIT_AUTHOR_DATE: commit.author.date,
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
        GIT_COMMITTER_DATE: committer.date,
      },
    });
  }

  /**
   * Compare-and-swap a ref. expectedOld: a sha = must currently be that;
   * null = must not exist yet; undefined = no check. Returns false when the check fails.
   */
  async updateRef(
    ref: string,
    newSha: string,
    expectedOld?: string | null,
  ): Promise<boolean> {
    const args = ['update-ref', ref, newSha];
    if (expectedOld !== undefined) args.push(expectedOld ?? ZERO_SHA);
    // Callers hold the write mutex, so the value read here is the one replaced.
    const before =
      expectedOld === undefined
        ? await this.beforeWrite(ref)
        : (expectedOld ?? ZERO_SHA);
    const ok = await this.refWrite(args);
    if (ok) this.announce({ ref, before, after: newSha });
    return ok;
  }

  async deleteRef(ref: string, expectedOld?: string): Promise<boolean> {
    const args = ['update-ref', '-d', ref];
    if (expectedOld) args.push(expectedOld);
    const before = expectedOld ?? (await this.beforeWrite(ref));
    const ok = await this.refWrite(args);
    if (ok) this.announce({ ref, before, after: ZERO_SHA });
    return ok;
  }

  /** The ref's sha before a write, read only when someone listens. */
  private async beforeWrite(ref: string): Promise<string> {
    if (this.refListeners.length === 0) return ZERO_SHA;
    return (await this.readRef(ref)) ?? ZERO_SHA;
  }

  private announce(update: RefUpdate): void {
    for (const listener of this.refListeners) listener(update);
  }

  private async refWrite(args: string[]): Promise<boolean> {
    try {
      await runGit(this.gitDir, args);
      this.refsVersion += 1;
      return true;
    } catch (error) {
      if (error instanceof GitCommandError) return false;
      throw error;
    }
  }
}

// ---- parsing helpers --------------------------------------------------------

export function isHexSha(value: string): boolean {
  return /^[0-9a-f]{40}$/.test(value);
}

/** Rejects anything git could read as an option or a revision expression we do not intend. */
export function isSafeRevision(value: string): boolean {
  return (
    value.length > 0 &&
    !value.startsWith('-') &&
    !/[\s~:?*[\\]|\.\.|@\{/.test(value.replace(/\^\{(commit|tree)\}$/, ''))
  );
}

function trimSlashes(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}

function parseLsTree(stdout: Buffer): TreeEntry[] {
  return stdout
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map(line => {
      const tab = line.indexOf('\t');
      const [mode, type, sha, size] = line.slice(0, tab).split(/\s+/);
      return {
        mode,
        type: type as ObjectType,
        sha,
        path: line.slice(tab + 1),
        size: size === '-' ? undefined : Number(size),
      };
    });
}

function parseCommits(stdout: Buffer): CommitInfo[] {
  return stdout
    .toString('utf8')
    .split(RECORD)
    .map(record => record.replace(/^\n/, ''))
    .filter(record => record.length > 0)
    .map(record => {
      const [sha, tree, parents, an, ae, ad, cn, ce, cd, message] =
        record.split(FIELD);
      return {
        sha,
        tree,
        parents: parents ? parents.split(' ') : [],
        author: { name: an, email: ae, date: ad },
        committer: { name: cn, email: ce, date: cd },
        message: (message ?? '').replace(/\n+$/, ''),
      };
    });
}

const STATUS_BY_LETTER: Record<string, FileChangeStatus> = {
  A: 'added',
  D: 'removed',
};

function parseRawDiff(
  stdout: Buffer,
): Array<Omit<FileChange, 'additions' | 'deletions' | 'patch'>> {
  const parts = stdout
    .toString('utf8')
    .split('\0')
    .filter(part => part.length > 0);
  const changes: Array<Omit<FileChange, 'additions' | 'deletions' | 'patch'>> =
    [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    // ":100644 100644 <old> <new> M" then the path
    const [, , oldSha, newSha, letter] = parts[i].replace(/^:/, '').split(' ');
    const status: FileChangeStatus = STATUS_BY_LETTER[letter] ?? 'modified';
    changes.push({
      filename: parts[i + 1],
      status,
      sha: status === 'removed' ? oldSha : newSha,
    });
  }
  return changes;
}

function parseNumstat(
  stdout: Buffer,
): Map<string, { additions: number; deletions: number }> {
  const counts = new Map<string, { additions: number; deletions: number }>();
  for (const line of stdout.toString('utf8').split('\0')) {
    const match = /^(\d+|-)\t(\d+|-)\t(.+)$/.exec(line.replace(/^\n/, ''));
    if (match) {
      counts.set(match[3], {
        additions: match[1] === '-' ? 0 : Number(match[1]),
        deletions: match[2] === '-' ? 0 : Number(match[2]),
      });
    }
  }
  return counts;
}

/** Splits `diff-tree -p` output into per-file hunks (GitHub's `patch` omits the headers). */
function splitPatch(text: string): Map<string, string> {
  const patches = new Map<string, string>();
  const sections = text.split(/^diff --git /m).slice(1);
  for (const section of sections) {
    const firstLine = section.slice(0, section.indexOf('\n'));
    const bIndex = firstLine.lastIndexOf(' b/');
    const filename = firstLine.slice(bIndex + 3);
    const hunkStart = section.search(/^@@/m);
    if (hunkStart >= 0) {
      patches.set(filename, section.slice(hunkStart).replace(/\n$/, ''));
    }
  }
  return patches;
}
