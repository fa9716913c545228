import type { Router } from 'express';
import { GithubContext, repoApiUrl } from '../context';
import { GithubError, validationFailed } from '../errors';
import { paginate } from '../pagination';
import { callerLogin } from '../responder';
import { nodeId, nowIso, repoJson, userByLogin } from '../shapes';
import { StatusRecord } from '../store';
import { resolveRef, route } from '../routeHelpers';
import { statusPayload } from '../../webhooks/webhookPayloads';

const STATES = ['error', 'failure', 'pending', 'success'] as const;

/** Commit statuses: POST /statuses/{sha}, GET /commits/{ref}/statuses, GET /commits/{ref}/status. */
export function registerStatusRoutes(router: Router, ctx: GithubContext): void {
  router.post(
    '/statuses/:sha',
    route(async (req, res) => {
      const sha = req.params.sha;
      const state = req.body?.state;
      if (!STATES.includes(state)) {
        throw validationFailed([
          {
            resource: 'Status',
            field: 'state',
            code: 'custom',
            message: `state is not included in the list`,
          },
        ]);
      }
      const record = await ctx.lock.run(async () => {
        if ((await ctx.repo.objectType(sha)) !== 'commit')
          throw new GithubError(422, `No commit found for SHA: ${sha}`);
        const now = nowIso();
        const status: StatusRecord = {
          id: ctx.store.nextId(),
          sha,
          state,
          context:
            typeof req.body?.context === 'string' && req.body.context
              ? req.body.context
              : 'default',
          description:
            typeof req.body?.description === 'string'
              ? req.body.description
              : null,
          targetUrl:
            typeof req.body?.target_url === 'string'
              ? req.body.target_url
              : null,
          creatorLogin: callerLogin(res),
          createdAt: now,
          updatedAt: now,
        };
        ctx.store.statuses.push(status);
        ctx.store.save();
        return status;
      });
      ctx.webhooks?.send('status', () => statusPayload(ctx, record));
      ctx.responder.json(req, res, 201, statusJson(ctx, record));
    }),
  );

  router.get(
    '/commits/:ref(*)/statuses',
    route(async (req, res) => {
      const sha = await resolveRef(ctx, req.params.ref);
      const statuses = sha ? statusesFor(ctx, sha) : [];
      ctx.responder.json(
        req,
        res,
        200,
        paginate(req, res, statuses).map(status => statusJson(ctx, status)),
      );
    }),
  );

  router.get(
    '/commits/:ref(*)/status',
    route(async (req, res) => {
      const sha = await resolveRef(ctx, req.params.ref);
      if (!sha)
        throw new GithubError(
          404,
          `No commit found for SHA: ${req.params.ref}`,
        );
      const latest = latestPerContext(statusesFor(ctx, sha));
      ctx.responder.json(req, res, 200, {
        state: combinedState(latest),
        statuses: latest.map(status => statusJson(ctx, status)),
        sha,
        total_count: latest.length,
        repository: repoJson(ctx),
        commit_url: `${repoApiUrl(ctx)}/commits/${sha}`,
        url: `${repoApiUrl(ctx)}/commits/${sha}/status`,
      });
    }),
  );
}

/** Newest first, as GitHub lists them. */
function statusesFor(ctx: GithubContext, sha: string): StatusRecord[] {
  return ctx.store.statuses
    .filter(status => status.sha === sha)
    .sort((a, b) => b.id - a.id);
}

function latestPerContext(statuses: StatusRecord[]): StatusRecord[] {
  const seen = new Set<string>();
  return statuses.filter(
    status => !seen.has(status.context) && seen.add(status.context),
  );
}

/** failure if any is error/failure, pending if any is pending or there are none, else success. */
function combinedState(latest: StatusRecord[]): string {
  if (
    latest.some(
      status => status.state === 'error' || status.state === 'failure',
    )
  )
    return 'failure';
  if (latest.length === 0 || latest.some(status => status.state === 'pending'))
    return 'pending';
  return 'success';
}

function statusJson(ctx: GithubContext, status: StatusRecord) {
  return {
    url: `${repoApiUrl(ctx)}/statuses/${status.sha}`,
    avatar_url: `${ctx.urls.web}/avatars/${status.creatorLogin}`,
    id: status.id,
    node_id: nodeId('SC', status.id),
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    context: status.context,
    created_at: status.createdAt,
    updated_at: status.updatedAt,
    creator: userByLogin(ctx, status.creatorLogin),
  };
}
