import { GithubContext, repoHtmlUrl } from '../github/context';
import { pullJson, pullLive } from '../github/pullView';
import { repoJson, userByLogin } from '../github/shapes';
import { PullRecord, StatusRecord } from '../github/store';
import { RefUpdate } from '../git/gitRepo';
import { CommitInfo, ZERO_SHA } from '../git/types';

/** GitHub lists at most this many commits in a push payload. */
const PUSH_COMMIT_LIMIT = 20;

/** A commit identity, with the GitHub login when the email belongs to a user. */
function identityJson(identity: CommitInfo['author'], ctx: GithubContext) {
  const user = ctx.users.byEmail(identity.email);
  return {
    name: identity.name,
    email: identity.email,
    ...(user ? { username: user.login } : {}),
  };
}

async function commitJson(ctx: GithubContext, commit: CommitInfo) {
  const parent = commit.parents[0] ?? null;
  const files = await ctx.repo.diff(parent, commit.sha);
  const paths = (status: string) =>
    files.filter(file => file.status === status).map(file => file.filename);
  return {
    id: commit.sha,
    tree_id: commit.tree,
    distinct: true,
    message: commit.message,
    timestamp: commit.committer.date,
    url: `${repoHtmlUrl(ctx)}/commit/${commit.sha}`,
    author: identityJson(commit.author, ctx),
    committer: identityJson(commit.committer, ctx),
    added: paths('added'),
    removed: paths('removed'),
    modified: paths('modified'),
  };
}

/**
 * The `push` payload of a ref update: the commits between before and after (for a new
 * branch, those not on the default branch), oldest first, at most 20, each with the
 * paths it added, modified and removed.
 */
export async function pushPayload(
  ctx: GithubContext,
  update: RefUpdate,
): Promise<Record<string, unknown> | undefined> {
  if (!update.ref.startsWith('refs/heads/') && !update.ref.startsWith('refs/tags/')) {
    return undefined;
  }
  const created = update.before === ZERO_SHA;
  const deleted = update.after === ZERO_SHA;
  let commits: CommitInfo[] = [];
  if (!deleted) {
    const until = created
      ? ((await ctx.repo.readRef('refs/heads/main')) ?? undefined)
      : update.before;
    commits = until === update.after ? [] : await ctx.repo.log(update.after, { until });
  }
  const forced =
    !created && !deleted && !(await ctx.repo.isAncestor(update.before, update.after));
  const listed = await Promise.all(
    commits.slice(0, PUSH_COMMIT_LIMIT).reverse().map(commit => commitJson(ctx, commit)),
  );
  const head = deleted ? undefined : await ctx.repo.readCommit(update.after);
  // The pusher is who wrote the newest commit (the merger, for a web merge), else the owner.
  const senderLogin = (head && ctx.users.byEmail(head.author.email)?.login) ?? ctx.owner;
  const sender = userByLogin(ctx, senderLogin);
  return {
    ref: update.ref,
    before: update.before,
    after: update.after,
    created,
    deleted,
    forced,
    base_ref: null,
    compare: `${repoHtmlUrl(ctx)}/compare/${update.before.slice(0, 12)}...${update.after.slice(0, 12)}`,
    commits: listed,
    head_commit: head ? await commitJson(ctx, head) : null,
    repository: repoJson(ctx),
    pusher: { name: senderLogin, email: null },
    sender,
  };
}

/** The `pull_request` payload (e.g. action `closed`, with `pull_request.merged`). */
export async function pullRequestPayload(
  ctx: GithubContext,
  pull: PullRecord,
  action: string,
  senderLogin: string,
): Promise<Record<string, unknown>> {
  return {
    action,
    number: pull.number,
    pull_request: pullJson(ctx, pull, await pullLive(ctx, pull, 'read')),
    repository: repoJson(ctx),
    sender: userByLogin(ctx, senderLogin),
  };
}

/** The `status` payload of a new commit status. */
export async function statusPayload(
  ctx: GithubContext,
  status: StatusRecord,
): Promise<Record<string, unknown>> {
  const branches = (await ctx.repo.listRefs('refs/heads/'))
    .filter(entry => entry.sha === status.sha)
    .map(entry => ({ name: entry.ref.slice('refs/heads/'.length), commit: { sha: entry.sha } }));
  return {
    id: status.id,
    sha: status.sha,
    name: `${ctx.owner}/${ctx.repoName}`,
    target_url: status.targetUrl,
    context: status.context,
    description: status.description,
    state: status.state,
    branches,
    commit: { sha: status.sha },
    created_at: status.createdAt,
    updated_at: status.updatedAt,
    repository: repoJson(ctx),
    sender: userByLogin(ctx, status.creatorLogin),
  };
}
