import { GithubContext } from './context';
import { GithubError } from './errors';
import { nowIso } from './shapes';
import { PullRecord } from './store';
import { branchHead } from './routeHelpers';
import { pullRequestPayload } from '../webhooks/webhookPayloads';

export interface MergeRequest {
  sha?: string;
  mergeMethod?: 'merge' | 'squash' | 'rebase';
  commitTitle?: string;
  commitMessage?: string;
  mergerLogin: string;
}

/**
 * The first of the base branch's required status checks whose latest status on the head is
 * not success (GitHub counts the newest status of each context).
 */
function missingRequiredCheck(ctx: GithubContext, baseRef: string, headSha: string): string | undefined {
  const required = baseRef === 'main' ? ctx.requiredStatusChecks ?? [] : [];
  if (required.length === 0) return undefined;
  const latest = new Map<string, string>();
  for (const status of ctx.store.statuses) if (status.sha === headSha) latest.set(status.context, status.state);
  return required.find(context => latest.get(context) !== 'success');
}

/** GitHub signs web merges as this committer. */
const WEB_COMMITTER = { name: 'GitHub', email: 'noreply@github.com' };

/**
 * PUT /pulls/{n}/merge under the write lock: GitHub's checks (open, head sha,
 * conflicts), then a real merge or squash commit on the base branch, moved with
 * a compare-and-swap on the old base head.
 */
export function mergePull(
  ctx: GithubContext,
  pull: PullRecord,
  request: MergeRequest,
): Promise<{ sha: string }> {
  return ctx.lock.run(async () => {
    if (pull.state !== 'open' || pull.mergedAt)
      throw new GithubError(405, 'Pull Request is not mergeable');
    const headSha = await branchHead(ctx, pull.headRef);
    const baseSha = await branchHead(ctx, pull.baseRef);
    if (!headSha || !baseSha)
      throw new GithubError(405, 'Pull Request is not mergeable');
    if (request.sha && request.sha !== headSha) {
      throw new GithubError(
        409,
        'Head branch was modified. Review and try the merge again.',
      );
    }
    const missing = missingRequiredCheck(ctx, pull.baseRef, headSha);
    if (missing) throw new GithubError(405, `Required status check "${missing}" is expected.`);
    if (await ctx.repo.isAncestor(headSha, baseSha)) {
      // Everything on head is already on base: nothing to merge.
      throw new GithubError(405, 'Pull Request is not mergeable');
    }
    const merged = await ctx.repo.mergeTrees(baseSha, headSha);
    if (merged.conflicts || !merged.tree)
      throw new GithubError(405, 'Pull Request is not mergeable');

    const date = nowIso();
    const merger = ctx.users.getOrCreate(request.mergerLogin);
    const method = request.mergeMethod ?? 'merge';
    let newBase: string;
    if (method === 'rebase' && (await ctx.repo.isAncestor(baseSha, headSha))) {
      // Rebasing a branch that already sits on base is a fast-forward.
      newBase = headSha;
    } else if (method === 'merge') {
      newBase = await ctx.repo.writeCommit({
        tree: merged.tree,
        parents: [baseSha, headSha],
        message: joinMessage(
          request.commitTitle ??
            `Merge pull request #${pull.number} from ${ctx.owner}/${pull.headRef}`,
          request.commitMessage ?? pull.title,
        ),
        author: { name: merger.name, email: merger.email, date },
        committer: { ...WEB_COMMITTER, date },
      });
    } else {
      // squash (and rebase of a diverged branch, simplified to one commit by the PR author)
      const commits = await ctx.repo.log(headSha, { until: baseSha });
      const author = ctx.users.getOrCreate(pull.userLogin);
      newBase = await ctx.repo.writeCommit({
        tree: merged.tree,
        parents: [baseSha],
        message: joinMessage(
          request.commitTitle ?? `${pull.title} (#${pull.number})`,
          request.commitMessage ??
            commits
              .reverse()
              .map(c => `* ${c.message.split('\n')[0]}`)
              .join('\n'),
        ),
        author: { name: author.name, email: author.email, date },
        committer: { ...WEB_COMMITTER, date },
      });
    }
    if (
      !(await ctx.repo.updateRef(
        `refs/heads/${pull.baseRef}`,
        newBase,
        baseSha,
      ))
    ) {
      throw new GithubError(
        409,
        'Base branch was modified. Review and try the merge again.',
      );
    }
    pull.state = 'closed';
    pull.mergedAt = date;
    pull.closedAt = date;
    pull.updatedAt = date;
    pull.mergedByLogin = merger.login;
    pull.mergeCommitSha = newBase;
    pull.closedHeadSha = headSha;
    pull.closedBaseSha = baseSha;
    ctx.store.save();
    // After the push the ref update announced: GitHub sends push, then pull_request closed.
    ctx.webhooks?.send('pull_request', () =>
      pullRequestPayload(ctx, pull, 'closed', merger.login),
    );
    if (ctx.deleteBranchOnMerge) {
      // The repository's "Automatically delete head branches": GitHub deletes it after the merge.
      await ctx.repo.deleteRef(`refs/heads/${pull.headRef}`, headSha);
    }
    return { sha: newBase };
  });
}

function joinMessage(title: string, body: string): string {
  return body ? `${title}\n\n${body}` : title;
}
