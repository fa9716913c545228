import express, {
  ErrorRequestHandler,
  Request,
  Response,
  Router,
} from 'express';
import { STATUS_CODES } from 'node:http';
import { FaultInjector, FaultSpec } from '../control/faults';
import { RequestLog } from '../control/requestLog';
import { githubAuth } from './auth';
import { GithubContext } from './context';
import { DOCS_URL, GithubError } from './errors';
import { RateLimiter, rateLimitHeaders } from './rateLimiter';
import { callerLogin } from './responder';
import { registerArchiveRoutes } from './routes/archive';
import { registerCommitRoutes } from './routes/commits';
import { registerContentsRoutes } from './routes/contents';
import { registerGitDataRoutes } from './routes/gitData';
import { registerIssueRoutes } from './routes/issues';
import { registerMetaRoutes } from './routes/meta';
import { registerPullRoutes } from './routes/pulls';
import { registerRepositoryRoutes } from './routes/repository';
import { registerStatusRoutes } from './routes/statuses';
import { SecondaryWriteLimit, secondaryWriteLimitMiddleware, sendSecondaryRateLimit } from './secondaryWriteLimit';

export interface GithubRouterDeps {
  tokens: Record<string, string>;
  limiter: RateLimiter;
  faults: FaultInjector;
  requestLog: RequestLog;
  /** GitHub's secondary limit on writes, enforced per identity; none when absent. */
  writeLimit?: SecondaryWriteLimit;
  /** The repository an owner/name pair names, other than the platform repo (case-insensitive, as GitHub). */
  otherRepository(owner: string, repo: string): GithubContext | undefined;
}

/** The GitHub REST subset, mounted at /github (octokit's baseUrl). `ctx` is the platform repo's. */
export function createGithubRouter(
  ctx: GithubContext,
  deps: GithubRouterDeps,
): Router {
  const router = express.Router();
  router.use(deps.requestLog.middleware('github'));
  router.use(
    deps.faults.middleware('github', (_req, res, fault) =>
      sendGithubFault(res, fault, deps.limiter),
    ),
  );
  router.use(express.json({ limit: '50mb' }));
  router.use(githubAuth(deps.tokens, ctx.responder));
  if (deps.writeLimit) router.use(secondaryWriteLimitMiddleware(deps.writeLimit));

  // Checking the rate limit is free on GitHub, so it bypasses the responder's accounting.
  router.get('/rate_limit', (_req, res) => {
    const snapshot = deps.limiter.peek(callerLogin(res));
    for (const [name, value] of Object.entries(rateLimitHeaders(snapshot)))
      res.setHeader(name, value);
    const core = {
      limit: snapshot.limit,
      used: snapshot.used,
      remaining: snapshot.remaining,
      reset: snapshot.reset,
    };
    res.json({ resources: { core }, rate: core });
  });

  registerMetaRoutes(router, ctx);

  const repoRouters = new Map<GithubContext, Router>();
  const repoRouterFor = (repoCtx: GithubContext): Router => {
    let repoRouter = repoRouters.get(repoCtx);
    if (!repoRouter) {
      repoRouter = createRepoRouter(repoCtx);
      repoRouters.set(repoCtx, repoRouter);
    }
    return repoRouter;
  };
  router.use('/repos/:owner/:repo', (req, res, next) => {
    const { owner, repo } = req.params;
    const repoCtx =
      owner.toLowerCase() === ctx.owner.toLowerCase() &&
      repo.toLowerCase() === ctx.repoName.toLowerCase()
        ? ctx
        : deps.otherRepository(owner, repo);
    if (!repoCtx) {
      next(new GithubError(404, 'Not Found'));
      return;
    }
    repoRouterFor(repoCtx)(req, res, next);
  });

  router.use((_req, _res, next) => next(new GithubError(404, 'Not Found')));
  router.use(githubErrorHandler(ctx));
  return router;
}

/** The routes under /repos/{owner}/{repo} for one repository. */
function createRepoRouter(ctx: GithubContext): Router {
  const repoRouter = express.Router({ mergeParams: true });
  registerRepositoryRoutes(repoRouter, ctx);
  registerArchiveRoutes(repoRouter, ctx);
  registerContentsRoutes(repoRouter, ctx);
  registerGitDataRoutes(repoRouter, ctx);
  // Statuses first: /commits/{ref}/status(es) must not be read as a ref.
  registerStatusRoutes(repoRouter, ctx);
  registerCommitRoutes(repoRouter, ctx);
  registerPullRoutes(repoRouter, ctx);
  registerIssueRoutes(repoRouter, ctx);
  return repoRouter;
}

function githubErrorHandler(ctx: GithubContext): ErrorRequestHandler {
  return (error, req: Request, res: Response, _next) => {
    if (res.headersSent) return;
    if (error instanceof GithubError) {
      ctx.responder.error(req, res, error);
    } else if (error?.type === 'entity.parse.failed') {
      ctx.responder.error(
        req,
        res,
        new GithubError(400, 'Problems parsing JSON'),
      );
    } else {
      console.error('platform-sim github error:', error);
      ctx.responder.error(req, res, new GithubError(500, 'Server Error'));
    }
  };
}

/** An injected failure, shaped like GitHub's own (including its rate-limit answers). */
function sendGithubFault(
  res: Response,
  fault: FaultSpec,
  limiter: RateLimiter,
): void {
  const reset = Math.ceil(Date.now() / 1000) + 1;
  if (fault.kind === 'secondary-rate-limit') {
    sendSecondaryRateLimit(res, 1, fault.message);
    return;
  }
  if (fault.kind === 'primary-rate-limit') {
    const snapshot = limiter.peek('(fault)');
    res
      .status(fault.status ?? 403)
      .set({
        ...rateLimitHeaders({
          ...snapshot,
          remaining: 0,
          used: snapshot.limit,
          reset,
        }),
        'content-type': 'application/json; charset=utf-8',
      })
      .send(
        JSON.stringify({
          message: fault.message ?? 'API rate limit exceeded for user ID 1000.',
          documentation_url:
            'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
        }),
      );
    return;
  }
  const status = fault.status ?? 500;
  res
    .status(status)
    .type('application/json; charset=utf-8')
    .send(
      JSON.stringify({
        message: fault.message ?? STATUS_CODES[status] ?? 'Server Error',
        documentation_url: DOCS_URL,
      }),
    );
}
