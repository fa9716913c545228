import type { Router } from 'express';
import { GithubContext, repoApiUrl, repoHtmlUrl } from '../context';
import { notFound } from '../errors';
import { paginate } from '../pagination';
import { repoJson, restCommitJson } from '../shapes';
import { route, wildcard } from '../routeHelpers';

/** GET /repos/{o}/{r}, branches. */
export function registerRepositoryRoutes(
  router: Router,
  ctx: GithubContext,
): void {
  router.get(
    '/',
    route(async (req, res) => ctx.responder.json(req, res, 200, repoJson(ctx))),
  );

  router.get(
    '/branches',
    route(async (req, res) => {
      const refs = await ctx.repo.listRefs('refs/heads/');
      const branches = refs.map(({ ref, sha }) => ({
        name: ref.slice('refs/heads/'.length),
        commit: { sha, url: `${repoApiUrl(ctx)}/commits/${sha}` },
        protected: ref === 'refs/heads/main',
      }));
      ctx.responder.json(req, res, 200, paginate(req, res, branches));
    }),
  );

  router.get(
    '/branches/*',
    route(async (req, res) => {
      const name = wildcard(req);
      const sha = await ctx.repo.readRef(`refs/heads/${name}`);
      const commit = sha ? await ctx.repo.readCommit(sha) : null;
      if (!commit) throw notFound('Branch not found');
      ctx.responder.json(req, res, 200, {
        name,
        commit: restCommitJson(ctx, commit),
        _links: {
          self: `${repoApiUrl(ctx)}/branches/${name}`,
          html: `${repoHtmlUrl(ctx)}/tree/${name}`,
        },
        protected: name === 'main',
        protection: branchProtection(ctx, name),
        protection_url: `${repoApiUrl(ctx)}/branches/${name}/protection`,
      });
    }),
  );

  // The branch's active rules from rulesets: the simulator's protection is classic branch protection only.
  router.get(
    '/rules/branches/*',
    route(async (req, res) => ctx.responder.json(req, res, 200, paginate(req, res, []))),
  );
}

/**
 * The `protection` summary GitHub puts in a branch's answer (readable with contents read):
 * main's required status checks, `enforcement_level` `non_admins` where there are some.
 */
function branchProtection(ctx: GithubContext, name: string) {
  const contexts = name === 'main' ? ctx.requiredStatusChecks ?? [] : [];
  return {
    enabled: name === 'main',
    required_status_checks: {
      enforcement_level: contexts.length > 0 ? 'non_admins' : 'off',
      contexts,
      checks: contexts.map(context => ({ context, app_id: null })),
    },
  };
}
