import { GithubContext, repoApiUrl, repoHtmlUrl } from './context';
import { labelJson, nodeId, repoJson, userByLogin } from './shapes';
import { PullRecord } from './store';
import { branchHead } from './routeHelpers';

/** What a pull request looks like right now: heads move while it is open, freeze once it closes. */
export interface PullLive {
  headSha: string;
  baseSha: string;
  mergeable: boolean | null;
  mergeableState: 'clean' | 'dirty' | 'unknown';
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
}

/**
 * How much a pull request answer says. `list`: GET /pulls (no mergeability or diff
 * stats, as GitHub's pull-request-simple). `created`: the POST answer, whose
 * mergeability GitHub has not computed yet. `read`: GET/PATCH /pulls/{n}, where
 * mergeability is ready from the second read at the same heads on.
 */
export type PullAnswer = 'list' | 'created' | 'read';

export async function pullLive(
  ctx: GithubContext,
  pull: PullRecord,
  answer: PullAnswer,
): Promise<PullLive> {
  const open = pull.state === 'open';
  const headSha =
    (open ? await branchHead(ctx, pull.headRef) : null) ??
    pull.closedHeadSha ??
    '';
  const baseSha =
    (open ? await branchHead(ctx, pull.baseRef) : null) ??
    pull.closedBaseSha ??
    '';
  const live: PullLive = {
    headSha,
    baseSha,
    mergeable: null,
    mergeableState: 'unknown',
    commits: 0,
    additions: 0,
    deletions: 0,
    changedFiles: 0,
  };
  if (answer === 'list' || !headSha || !baseSha) return live;
  if (
    answer === 'read' &&
    open &&
    ctx.mergeability.ready(pull.number, headSha, baseSha)
  ) {
    const { conflicts } = await ctx.repo.mergeTrees(baseSha, headSha);
    live.mergeable = !conflicts;
    live.mergeableState = conflicts ? 'dirty' : 'clean';
  }
  const base = (await ctx.repo.mergeBase(baseSha, headSha)) ?? baseSha;
  const files = await ctx.repo.diff(base, headSha);
  live.commits = (await ctx.repo.log(headSha, { until: base })).length;
  live.additions = files.reduce((sum, file) => sum + file.additions, 0);
  live.deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  live.changedFiles = files.length;
  return live;
}

/** A GET /pulls list entry: GitHub's pull-request-simple (no mergeability, merge state or counts). */
export function pullSimpleJson(
  ctx: GithubContext,
  pull: PullRecord,
  live: Pick<PullLive, 'headSha' | 'baseSha'>,
): Record<string, unknown> {
  const api = repoApiUrl(ctx);
  const html = `${repoHtmlUrl(ctx)}/pull/${pull.number}`;
  const repo = repoJson(ctx);
  const owner = userByLogin(ctx, ctx.owner);
  const side = (ref: string, sha: string) => ({
    label: `${ctx.owner}:${ref}`,
    ref,
    sha,
    user: owner,
    repo,
  });
  const url = `${api}/pulls/${pull.number}`;
  return {
    url,
    id: pull.id,
    node_id: nodeId('PR', pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${pull.number}`,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${pull.number}/comments`,
    statuses_url: `${api}/statuses/${live.headSha}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    active_lock_reason: null,
    title: pull.title,
    user: userByLogin(ctx, pull.userLogin),
    body: pull.body,
    labels: pull.labels.map(name => {
      const label = ctx.store.labels.find(l => l.name === name);
      return labelJson(
        ctx,
        label ?? { id: 0, name, color: 'ededed', description: null },
      );
    }),
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: pull.closedAt ?? null,
    merged_at: pull.mergedAt ?? null,
    merge_commit_sha: pull.mergeCommitSha ?? null,
    milestone: null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: side(pull.headRef, live.headSha),
    base: side(pull.baseRef, live.baseSha),
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: `${api}/issues/${pull.number}` },
      comments: { href: `${api}/issues/${pull.number}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${api}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${api}/statuses/${live.headSha}` },
    },
    author_association: 'MEMBER',
    auto_merge: null,
    draft: pull.draft,
  };
}

/** The pull request JSON of GET /pulls/{n}: the simple shape plus mergeability, merge state and counts. */
export function pullJson(
  ctx: GithubContext,
  pull: PullRecord,
  live: PullLive,
): Record<string, unknown> {
  return {
    ...pullSimpleJson(ctx, pull, live),
    merged: Boolean(pull.mergedAt),
    mergeable: live.mergeable,
    rebaseable: live.mergeable,
    mergeable_state: live.mergeableState,
    merged_by: pull.mergedByLogin ? userByLogin(ctx, pull.mergedByLogin) : null,
    comments: ctx.store.comments.filter(
      comment => comment.issueNumber === pull.number,
    ).length,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: live.commits,
    additions: live.additions,
    deletions: live.deletions,
    changed_files: live.changedFiles,
  };
}
