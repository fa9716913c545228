import { createHash } from 'node:crypto';
import { AppRepos } from '../appRepo/appRepos';
import { GithubContext } from './context';
import { MergeabilityJobs } from './mergeability';
import { GithubStore } from './store';

/** What every repository's GitHub context shares with the platform repo's. */
export type SharedGithubParts = Pick<
  GithubContext,
  'users' | 'urls' | 'responder' | 'treeEntryLimit'
>;

/**
 * The app repos as GitHub repositories (`<team>/<product>-app`), each with its
 * own pull requests and statuses, made on first use and kept.
 */
export function appRepoContexts(
  appRepos: AppRepos,
  shared: SharedGithubParts,
): (owner: string, repo: string) => GithubContext | undefined {
  const contexts = new Map<string, GithubContext>();
  return (owner, repo) => {
    const handle = appRepos.find(owner, repo);
    if (!handle) return undefined;
    const gitDir = appRepos.gitDir(handle.key);
    let ctx = contexts.get(gitDir);
    if (!ctx) {
      const fullName = `${handle.key.team}/${AppRepos.repoName(handle.key.product)}`;
      ctx = {
        ...shared,
        repo: handle.git,
        committer: handle.committer,
        lock: handle.lock,
        store: new GithubStore(gitDir.replace(/\.git$/, '.github-store.json')),
        owner: handle.key.team,
        repoName: AppRepos.repoName(handle.key.product),
        repoId: stableRepoId(fullName),
        description: `App repo of ${handle.key.team}/${handle.key.product}: the workload shape (k8s/base, k8s/overlays/<stage>), never a version (simulated)`,
        mergeability: new MergeabilityJobs(),
      };
      contexts.set(gitDir, ctx);
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
