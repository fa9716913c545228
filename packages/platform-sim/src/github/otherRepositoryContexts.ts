import { createHash } from 'node:crypto';
import { FileCommitter } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import { GithubContext } from './context';
import { MergeabilityJobs } from './mergeability';
import { GithubStore } from './store';

/** What every repository's GitHub context shares with the platform repo's. */
export type SharedGithubParts = Pick<
  GithubContext,
  'users' | 'urls' | 'responder' | 'treeEntryLimit'
>;

/** A repository besides the platform repo, as its owner keeps it. */
export interface OtherRepository {
  owner: string;
  name: string;
  gitDir: string;
  git: GitRepo;
  lock: Mutex;
  committer: FileCommitter;
  description: string;
}

/**
 * The repositories besides the platform repo (the Products' app repos and
 * source repos) as GitHub repositories, each with its own pull requests and
 * statuses, made on first use and kept.
 */
export function otherRepositoryContexts(
  find: (owner: string, repo: string) => OtherRepository | undefined,
  shared: SharedGithubParts,
): (owner: string, repo: string) => GithubContext | undefined {
  const contexts = new Map<string, GithubContext>();
  return (owner, repo) => {
    const found = find(owner, repo);
    if (!found) return undefined;
    let ctx = contexts.get(found.gitDir);
    if (!ctx) {
      ctx = {
        ...shared,
        repo: found.git,
        committer: found.committer,
        lock: found.lock,
        store: new GithubStore(found.gitDir.replace(/\.git$/, '.github-store.json')),
        owner: found.owner,
        repoName: found.name,
        repoId: stableRepoId(`${found.owner}/${found.name}`),
        description: found.description,
        mergeability: new MergeabilityJobs(),
      };
      contexts.set(found.gitDir, ctx);
    }
    return ctx;
  };
}

/** A repository id that stays the same across restarts. */
function stableRepoId(fullName: string): number {
  return (
    10_000 +
    parseInt(createHash('sha1').update(fullName).digest('hex').slice(0, 6), 16)
  );
}
