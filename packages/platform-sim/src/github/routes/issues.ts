import type { Request, Router } from 'express';
import { GithubContext, repoApiUrl, repoHtmlUrl } from '../context';
import {
  GithubError,
  notFound,
  requireString,
  validationFailed,
} from '../errors';
import { paginate } from '../pagination';
import { callerLogin } from '../responder';
import { labelJson, nodeId, nowIso, userByLogin } from '../shapes';
import { CommentRecord, LabelRecord, PullRecord } from '../store';
import { route } from '../routeHelpers';

/**
 * Issue endpoints as they apply to pull requests (every PR is an issue):
 * comments and labels, plus the repository's label list.
 */
export function registerIssueRoutes(router: Router, ctx: GithubContext): void {
  router.get(
    '/issues/:number',
    route(async (req, res) => {
      const pull = findIssue(ctx, req);
      const api = repoApiUrl(ctx);
      ctx.responder.json(req, res, 200, {
        url: `${api}/issues/${pull.number}`,
        html_url: `${repoHtmlUrl(ctx)}/pull/${pull.number}`,
        id: pull.id,
        node_id: nodeId('I', pull.id),
        number: pull.number,
        title: pull.title,
        body: pull.body,
        user: userByLogin(ctx, pull.userLogin),
        labels: pull.labels.map(name =>
          labelJson(ctx, findOrDescribeLabel(ctx, name)),
        ),
        state: pull.state,
        comments: ctx.store.comments.filter(
          comment => comment.issueNumber === pull.number,
        ).length,
        created_at: pull.createdAt,
        updated_at: pull.updatedAt,
        closed_at: pull.closedAt ?? null,
        pull_request: {
          url: `${api}/pulls/${pull.number}`,
          html_url: `${repoHtmlUrl(ctx)}/pull/${pull.number}`,
          merged_at: pull.mergedAt ?? null,
        },
      });
    }),
  );

  router.get(
    '/issues/:number/comments',
    route(async (req, res) => {
      const pull = findIssue(ctx, req);
      const comments = ctx.store.comments.filter(
        comment => comment.issueNumber === pull.number,
      );
      ctx.responder.json(
        req,
        res,
        200,
        paginate(req, res, comments).map(comment => commentJson(ctx, comment)),
      );
    }),
  );

  router.post(
    '/issues/:number/comments',
    route(async (req, res) => {
      const pull = findIssue(ctx, req);
      const body = requireString(req.body, 'body');
      const comment = await ctx.lock.run(async () => {
        const now = nowIso();
        const record: CommentRecord = {
          id: ctx.store.nextId(),
          issueNumber: pull.number,
          body,
          userLogin: callerLogin(res),
          createdAt: now,
          updatedAt: now,
        };
        ctx.store.comments.push(record);
        pull.updatedAt = now;
        ctx.store.save();
        return record;
      });
      ctx.responder.json(req, res, 201, commentJson(ctx, comment));
    }),
  );

  router.get(
    '/issues/:number/labels',
    route(async (req, res) => {
      const pull = findIssue(ctx, req);
      ctx.responder.json(
        req,
        res,
        200,
        pull.labels.map(name => labelJson(ctx, findOrDescribeLabel(ctx, name))),
      );
    }),
  );

  const addLabels = route(async (req, res) => {
    const pull = findIssue(ctx, req);
    const names: unknown = Array.isArray(req.body)
      ? req.body
      : req.body?.labels;
    if (
      !Array.isArray(names) ||
      names.some(
        name => typeof name !== 'string' && typeof name?.name !== 'string',
      )
    ) {
      throw validationFailed([
        { resource: 'Label', field: 'labels', code: 'invalid' },
      ]);
    }
    const replace = req.method === 'PUT';
    await ctx.lock.run(async () => {
      const wanted = (names as Array<string | { name: string }>).map(name =>
        typeof name === 'string' ? name : name.name,
      );
      if (replace) pull.labels = [];
      for (const name of wanted) {
        // GitHub creates labels that do not exist yet when they are added to an issue.
        ensureLabel(ctx, name);
        if (!pull.labels.includes(name)) pull.labels.push(name);
      }
      pull.updatedAt = nowIso();
      ctx.store.save();
    });
    ctx.responder.json(
      req,
      res,
      200,
      pull.labels.map(name => labelJson(ctx, findOrDescribeLabel(ctx, name))),
    );
  });
  router.post('/issues/:number/labels', addLabels);
  router.put('/issues/:number/labels', addLabels);

  router.delete(
    '/issues/:number/labels/:name',
    route(async (req, res) => {
      const pull = findIssue(ctx, req);
      if (!pull.labels.includes(req.params.name))
        throw notFound('Label does not exist');
      await ctx.lock.run(async () => {
        pull.labels = pull.labels.filter(name => name !== req.params.name);
        ctx.store.save();
      });
      ctx.responder.json(
        req,
        res,
        200,
        pull.labels.map(name => labelJson(ctx, findOrDescribeLabel(ctx, name))),
      );
    }),
  );

  router.get(
    '/labels',
    route(async (req, res) => {
      ctx.responder.json(
        req,
        res,
        200,
        paginate(req, res, ctx.store.labels).map(label =>
          labelJson(ctx, label),
        ),
      );
    }),
  );

  router.get(
    '/labels/:name',
    route(async (req, res) => {
      const label = ctx.store.labels.find(
        l => l.name.toLowerCase() === req.params.name.toLowerCase(),
      );
      if (!label) throw notFound();
      ctx.responder.json(req, res, 200, labelJson(ctx, label));
    }),
  );

  router.post(
    '/labels',
    route(async (req, res) => {
      const name = requireString(req.body, 'name');
      const label = await ctx.lock.run(async () => {
        if (
          ctx.store.labels.some(
            l => l.name.toLowerCase() === name.toLowerCase(),
          )
        ) {
          throw new GithubError(422, 'Validation Failed', [
            { resource: 'Label', code: 'already_exists', field: 'name' },
          ]);
        }
        const record = ensureLabel(
          ctx,
          name,
          req.body?.color,
          req.body?.description,
        );
        ctx.store.save();
        return record;
      });
      ctx.responder.json(req, res, 201, labelJson(ctx, label));
    }),
  );
}

function findIssue(ctx: GithubContext, req: Request): PullRecord {
  const pull = ctx.store.pull(Number(req.params.number));
  if (!pull) throw notFound();
  return pull;
}

function ensureLabel(
  ctx: GithubContext,
  name: string,
  color?: unknown,
  description?: unknown,
): LabelRecord {
  const existing = ctx.store.labels.find(
    label => label.name.toLowerCase() === name.toLowerCase(),
  );
  if (existing) return existing;
  const label: LabelRecord = {
    id: ctx.store.nextId(),
    name,
    color: typeof color === 'string' ? color.replace(/^#/, '') : 'ededed',
    description: typeof description === 'string' ? description : null,
  };
  ctx.store.labels.push(label);
  return label;
}

function findOrDescribeLabel(ctx: GithubContext, name: string): LabelRecord {
  return (
    ctx.store.labels.find(label => label.name === name) ?? {
      id: 0,
      name,
      color: 'ededed',
      description: null,
    }
  );
}

function commentJson(ctx: GithubContext, comment: CommentRecord) {
  const api = repoApiUrl(ctx);
  return {
    id: comment.id,
    node_id: nodeId('IC', comment.id),
    url: `${api}/issues/comments/${comment.id}`,
    html_url: `${repoHtmlUrl(ctx)}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
    issue_url: `${api}/issues/${comment.issueNumber}`,
    body: comment.body,
    user: userByLogin(ctx, comment.userLogin),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association: 'MEMBER',
  };
}
