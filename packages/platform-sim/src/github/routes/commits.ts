import type { Router } from 'express';
import { GithubContext, repoApiUrl, repoHtmlUrl } from '../context';
import { notFound } from '../errors';
import { paginate } from '../pagination';
import { fileJson, restCommitJson } from '../shapes';
import { resolveRef, resolveRefOr404, route, wildcard } from '../routeHelpers';

/** Without per_page or page, GitHub lists the newest 250 commits of a comparison (oldest first). */
const UNPAGED_COMPARE_COMMITS = 250;
/** A comparison lists at most 300 changed files, and only on its first page. */
const COMPARE_FILES = 300;
/**
 * A commit lists its changed files 300 a page, with a Link header to the
 * next page, up to 3,000 in all (GitHub's "Get a commit").
 */
const COMMIT_FILES_PER_PAGE = 300;
const COMMIT_FILES_LISTED = 3000;

/** GET /commits (git log), /commits/{ref} (with files), /compare/{base}...{head}. */
export function registerCommitRoutes(router: Router, ctx: GithubContext): void {
  router.get(
    '/commits',
    route(async (req, res) => {
      const from =
        typeof req.query.sha === 'string' && req.query.sha
          ? req.query.sha
          : 'main';
      const head = await resolveRef(ctx, from);
      if (!head) throw notFound(`No commit found for SHA: ${from}`);
      const filePath =
        typeof req.query.path === 'string' ? req.query.path : undefined;
      let commits = await ctx.repo.log(head, { path: filePath });
      const author =
        typeof req.query.author === 'string'
          ? req.query.author.toLowerCase()
          : undefined;
      if (author) {
        commits = commits.filter(
          c =>
            c.author.email.toLowerCase() === author ||
            ctx.users.byEmail(c.author.email)?.login.toLowerCase() === author,
        );
      }
      const since =
        typeof req.query.since === 'string' ? Date.parse(req.query.since) : NaN;
      const until =
        typeof req.query.until === 'string' ? Date.parse(req.query.until) : NaN;
      if (!Number.isNaN(since))
        commits = commits.filter(c => Date.parse(c.committer.date) >= since);
      if (!Number.isNaN(until))
        commits = commits.filter(c => Date.parse(c.committer.date) <= until);
      const page = paginate(req, res, commits);
      ctx.responder.json(
        req,
        res,
        200,
        page.map(commit => restCommitJson(ctx, commit)),
      );
    }),
  );

  router.get(
    '/commits/:ref(*)',
    route(async (req, res) => {
      const ref = req.params.ref;
      // /commits/{ref}/status(es) are registered earlier (statuses routes), so they never reach here.
      const sha = await resolveRefOr404(ctx, ref);
      const commit = await ctx.repo.readCommit(sha);
      if (!commit) throw notFound(`No commit found for SHA: ${ref}`);
      const files = (await ctx.repo.diff(commit.parents[0] ?? null, commit.sha)).slice(0, COMMIT_FILES_LISTED);
      const page = Math.max(1, Number(req.query.page ?? 1) || 1);
      if (page * COMMIT_FILES_PER_PAGE < files.length) {
        const next = new URL(`${req.protocol}://${req.get('host')}${req.originalUrl}`);
        next.searchParams.set('page', String(page + 1));
        res.setHeader('Link', `<${next.toString()}>; rel="next"`);
      }
      const shown = files.slice((page - 1) * COMMIT_FILES_PER_PAGE, page * COMMIT_FILES_PER_PAGE);
      ctx.responder.json(req, res, 200, restCommitJson(ctx, commit, shown));
    }),
  );

  router.get(
    '/compare/*',
    route(async (req, res) => {
      const spec = wildcard(req);
      const separator = spec.includes('...') ? '...' : '..';
      const [baseRef, headRef] = spec.split(separator);
      if (!baseRef || !headRef) throw notFound();
      const base = await resolveRef(ctx, baseRef);
      const head = await resolveRef(ctx, headRef);
      if (!base || !head) throw notFound(`Not Found`);
      const mergeBase = (await ctx.repo.mergeBase(base, head)) ?? base;
      const { ahead, behind } = await ctx.repo.aheadBehind(base, head);
      const status = compareStatus(ahead, behind);
      const commits = (
        await ctx.repo.log(head, { until: mergeBase })
      ).reverse();
      const paged =
        req.query.per_page !== undefined || req.query.page !== undefined;
      const shown = paged
        ? paginate(req, res, commits)
        : commits.slice(-UNPAGED_COMPARE_COMMITS);
      const firstPage = !paged || (Number(req.query.page) || 1) <= 1;
      const files = firstPage
        ? (await ctx.repo.diff(mergeBase, head)).slice(0, COMPARE_FILES)
        : [];
      const baseCommit = await ctx.repo.readCommit(base);
      const mergeBaseCommit = await ctx.repo.readCommit(mergeBase);
      const api = repoApiUrl(ctx);
      ctx.responder.json(req, res, 200, {
        url: `${api}/compare/${spec}`,
        html_url: `${repoHtmlUrl(ctx)}/compare/${spec}`,
        permalink_url: `${repoHtmlUrl(ctx)}/compare/${base}...${head}`,
        diff_url: `${repoHtmlUrl(ctx)}/compare/${spec}.diff`,
        patch_url: `${repoHtmlUrl(ctx)}/compare/${spec}.patch`,
        base_commit: restCommitJson(ctx, baseCommit!),
        merge_base_commit: restCommitJson(ctx, mergeBaseCommit!),
        status,
        ahead_by: ahead,
        behind_by: behind,
        total_commits: commits.length,
        commits: shown.map(commit => restCommitJson(ctx, commit)),
        files: files.map(file => fileJson(ctx, file, head)),
      });
    }),
  );
}

/** GitHub's compare status from the ahead/behind counts. */
function compareStatus(
  ahead: number,
  behind: number,
): 'identical' | 'ahead' | 'behind' | 'diverged' {
  if (ahead === 0 && behind === 0) return 'identical';
  if (behind === 0) return 'ahead';
  if (ahead === 0) return 'behind';
  return 'diverged';
}
