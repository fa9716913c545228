import { createHmac, randomBytes } from 'node:crypto';
import express, { Router } from 'express';
import { LRUCache } from 'lru-cache';
import { runGit } from '../../git/gitExec';
import { RequestLog } from '../../control/requestLog';
import { GithubContext } from '../context';
import { resolveRefOr404, route, wildcard } from '../routeHelpers';

/** GitHub's codeload links for private repositories expire after five minutes. */
const LINK_TTL_MS = 5 * 60 * 1000;
/** The archives kept, by size: a commit's archive never changes. */
const KEPT_ARCHIVE_BYTES = 64 * 1024 * 1024;
/** Signs codeload links, so the archive host needs no Authorization header (clients drop it across hosts). */
const SECRET = randomBytes(32);

function sign(owner: string, repo: string, sha: string, expires: number): string {
  return createHmac('sha256', SECRET).update(`${owner}/${repo}/${sha}/${expires}`).digest('hex');
}

/** The link GitHub's 302 points at: `<base>/codeload/<owner>/<repo>/legacy.tar.gz/<sha>?token=…`. */
function codeloadLink(ctx: GithubContext, sha: string, now = Date.now()): string {
  const expires = now + LINK_TTL_MS;
  const token = `${expires}.${sign(ctx.owner, ctx.repoName, sha, expires)}`;
  return `${ctx.urls.base}/codeload/${ctx.owner}/${ctx.repoName}/legacy.tar.gz/${sha}?token=${token}`;
}

/**
 * GET /repos/{o}/{r}/tarball/{ref}: as on GitHub, a 302 to a short-lived
 * codeload link (it counts against the rate limit; the download does not).
 */
export function registerArchiveRoutes(router: Router, ctx: GithubContext): void {
  router.get(
    '/tarball/*',
    route(async (req, res) => {
      const sha = await resolveRefOr404(ctx, wildcard(req), 'Not Found');
      res.setHeader('Location', codeloadLink(ctx, sha));
      ctx.responder.empty(req, res, 302);
    }),
  );
}

/**
 * The codeload stand-in, mounted at /codeload: the commit as
 * `git archive --format=tar.gz --prefix=<owner>-<repo>-<sha7>/`, GitHub's
 * legacy tarball layout. Requests are logged as GitHub traffic.
 */
export function createCodeloadRouter(deps: {
  requestLog: RequestLog;
  repository(owner: string, repo: string): GithubContext | undefined;
}): Router {
  const router = express.Router();
  // Each commit is archived once and kept, as GitHub's codeload caches archives: archiving
  // 100,000 files again for each download took longer than the plugin's 10 s GitHub
  // deadline on a loaded 2-core machine. Concurrent downloads share one archiving.
  const archives = new LRUCache<string, Buffer, { gitDir: string; prefix: string; sha: string }>({
    maxSize: KEPT_ARCHIVE_BYTES,
    sizeCalculation: archive => Math.max(archive.length, 1),
    fetchMethod: async (_key, _stale, { context }) =>
      (await runGit(context.gitDir, ['archive', '--format=tar.gz', `--prefix=${context.prefix}`, context.sha])).stdout,
  });
  router.use(deps.requestLog.middleware('github'));
  router.get(
    '/:owner/:repo/legacy.tar.gz/:sha',
    route(async (req, res) => {
      const { owner, repo, sha } = req.params;
      const ctx = deps.repository(owner, repo);
      const [expires, signature] = String(req.query.token ?? '').split('.');
      const valid =
        ctx !== undefined &&
        /^[0-9a-f]{40}$/.test(sha) &&
        Number(expires) > Date.now() &&
        signature === sign(ctx.owner, ctx.repoName, sha, Number(expires));
      if (!valid) {
        res.status(404).type('text/plain').send('Not Found');
        return;
      }
      const prefix = `${ctx.owner}-${ctx.repoName}-${sha.slice(0, 7)}/`;
      const gitDir = ctx.repo.gitDir;
      const archive = await archives.fetch(`${gitDir}\0${prefix}${sha}`, { context: { gitDir, prefix, sha } });
      res.setHeader(
        'Content-Disposition',
        `attachment; filename=${ctx.owner}-${ctx.repoName}-${sha.slice(0, 7)}.tar.gz`,
      );
      res.status(200).type('application/x-gzip').send(archive);
    }),
  );
  router.use((_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });
  return router;
}
