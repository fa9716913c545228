import { FileCommitter } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import { SimUrls } from '../http/simUrls';
import { UserDirectory } from '../identity/users';
import { WebhookSender } from '../webhooks/webhookSender';
import { MergeabilityJobs } from './mergeability';
import { GithubResponder } from './responder';
import { GithubStore } from './store';

/** What every GitHub route needs; built once per simulator. */
export interface GithubContext {
  repo: GitRepo;
  committer: FileCommitter;
  /** The repository write lock (refs + store). */
  lock: Mutex;
  store: GithubStore;
  users: UserDirectory;
  owner: string;
  repoName: string;
  /** The repository's numeric id and description (GET /repos/{o}/{r}). */
  repoId: number;
  description: string;
  urls: SimUrls;
  responder: GithubResponder;
  mergeability: MergeabilityJobs;
  /** Entries of a tree answered before `truncated: true`. */
  treeEntryLimit: number;
  /** The repository webhook (platform repo only); pushes are sent from ref updates. */
  webhooks?: WebhookSender;
  /** "Automatically delete head branches": a merged PR's head branch is deleted by GitHub. */
  deleteBranchOnMerge?: boolean;
  /** The base branch's branch protection: the status contexts a merge needs (success on the head). */
  requiredStatusChecks?: string[];
}

/** API URL of the repository, e.g. http://127.0.0.1:7070/github/repos/refplat/platform */
export function repoApiUrl(ctx: GithubContext): string {
  return `${ctx.urls.github}/repos/${ctx.owner}/${ctx.repoName}`;
}

/** Browser URL of the repository, e.g. http://127.0.0.1:7070/web/refplat/platform */
export function repoHtmlUrl(ctx: GithubContext): string {
  return `${ctx.urls.web}/${ctx.owner}/${ctx.repoName}`;
}
