import type { Request, Router } from 'express';
import { GithubContext, repoApiUrl, repoHtmlUrl } from '../context';
import {
  GithubError,
  notFound,
  requireString,
  validationFailed,
} from '../errors';
import { mergePull } from '../mergePull';
import { pullRequestPayload } from '../../webhooks/webhookPayloads';
import { paginate } from '../pagination';
import { pullJson, pullLive, pullSimpleJson } from '../pullView';
import { callerLogin } from '../responder';
import {
  fileJson,
  nodeId,
  nowIso,
  restCommitJson,
  userByLogin,
} from '../shapes';
import { PullRecord, ReviewRecord } from '../store';
import { branchHead, route } from '../routeHelpers';

/** Pull requests, their files/commits, merging and reviews. */
export function registerPullRoutes(router: Router, ctx: GithubContext): void {
  router.post(
    '/pulls',
    route(async (req, res) => {
      const title = requireString(req.body, 'title');
      const headParam = requireString(req.body, 'head');
      const baseRef = requireString(req.body, 'base');
      const created = await ctx.lock.run(() =>
        createPull(ctx, req, title, headParam, baseRef, callerLogin(res)),
      );
      ctx.responder.json(
        req,
        res,
        201,
        pullJson(ctx, created, await pullLive(ctx, created, 'created')),
      );
    }),
  );

  router.get(
    '/pulls',
    route(async (req, res) => {
      const state =
        typeof req.query.state === 'string' ? req.query.state : 'open';
      const head =
        typeof req.query.head === 'string'
          ? parseHead(ctx, req.query.head)
          : undefined;
      const base =
        typeof req.query.base === 'string' ? req.query.base : undefined;
      let pulls = ctx.store.pulls.filter(
        pull =>
          (state === 'all' || pull.state === state) &&
          (head === undefined || pull.headRef === head) &&
          (base === undefined || pull.baseRef === base),
      );
      const sortKey = req.query.sort === 'updated' ? 'updatedAt' : 'createdAt';
      const ascending = req.query.direction === 'asc';
      pulls = [...pulls].sort((a, b) => {
        const order =
          a[sortKey].localeCompare(b[sortKey]) || a.number - b.number;
        return ascending ? order : -order;
      });
      const page = paginate(req, res, pulls);
      const body = [];
      for (const pull of page)
        body.push(pullSimpleJson(ctx, pull, await pullLive(ctx, pull, 'list')));
      ctx.responder.json(req, res, 200, body);
    }),
  );

  router.get(
    '/pulls/:number',
    route(async (req, res) => {
      const pull = findPull(ctx, req);
      ctx.responder.json(
        req,
        res,
        200,
        pullJson(ctx, pull, await pullLive(ctx, pull, 'read')),
      );
    }),
  );

  router.patch(
    '/pulls/:number',
    route(async (req, res) => {
      const pull = findPull(ctx, req);
      let action: 'closed' | 'reopened' | undefined;
      await ctx.lock.run(async () => {
        if (typeof req.body?.title === 'string') pull.title = req.body.title;
        if (typeof req.body?.body === 'string' || req.body?.body === null)
          pull.body = req.body.body;
        if (typeof req.body?.base === 'string') {
          if (!(await branchHead(ctx, req.body.base)))
            throw validationFailed([
              { resource: 'PullRequest', field: 'base', code: 'invalid' },
            ]);
          pull.baseRef = req.body.base;
        }
        if (req.body?.state === 'closed' && pull.state === 'open') {
          pull.closedHeadSha =
            (await branchHead(ctx, pull.headRef)) ?? pull.closedHeadSha;
          pull.closedBaseSha =
            (await branchHead(ctx, pull.baseRef)) ?? pull.closedBaseSha;
          pull.state = 'closed';
          pull.closedAt = nowIso();
          action = 'closed';
        } else if (req.body?.state === 'open' && pull.state === 'closed') {
          if (pull.mergedAt || !(await branchHead(ctx, pull.headRef))) {
            throw new GithubError(422, 'Validation Failed', [
              {
                resource: 'PullRequest',
                code: 'custom',
                message:
                  'state cannot be changed. The pull request cannot be reopened.',
              },
            ]);
          }
          pull.state = 'open';
          pull.closedAt = undefined;
          action = 'reopened';
        }
        pull.updatedAt = nowIso();
        ctx.store.save();
      });
      const sender = callerLogin(res);
      if (action) {
        const act = action;
        ctx.webhooks?.send('pull_request', () => pullRequestPayload(ctx, pull, act, sender));
      }
      ctx.responder.json(
        req,
        res,
        200,
        pullJson(ctx, pull, await pullLive(ctx, pull, 'read')),
      );
    }),
  );

  router.get(
    '/pulls/:number/files',
    route(async (req, res) => {
      const pull = findPull(ctx, req);
      const live = await pullLive(ctx, pull, 'list');
      const base =
        (await ctx.repo.mergeBase(live.baseSha, live.headSha)) ?? live.baseSha;
      const files = await ctx.repo.diff(base, live.headSha);
      ctx.responder.json(
        req,
        res,
        200,
        paginate(req, res, files).map(file =>
          fileJson(ctx, file, live.headSha),
        ),
      );
    }),
  );

  router.get(
    '/pulls/:number/commits',
    route(async (req, res) => {
      const pull = findPull(ctx, req);
      const live = await pullLive(ctx, pull, 'list');
      const base =
        (await ctx.repo.mergeBase(live.baseSha, live.headSha)) ?? live.baseSha;
      const commits = (
        await ctx.repo.log(live.headSha, { until: base })
      ).reverse();
      ctx.responder.json(
        req,
        res,
        200,
        paginate(req, res, commits).map(commit => restCommitJson(ctx, commit)),
      );
    }),
  );

  router.get(
    '/pulls/:number/merge',
    route(async (req, res) => {
      const pull = findPull(ctx, req);
      if (!pull.mergedAt) throw notFound();
      ctx.responder.empty(req, res, 204);
    }),
  );

  router.put(
    '/pulls/:number/merge',
    route(async (req, res) => {
      const pull = findPull(ctx, req);
      const method = req.body?.merge_method;
      if (
        method !== undefined &&
        !['merge', 'squash', 'rebase'].includes(method)
      ) {
        throw validationFailed([
          { resource: 'PullRequest', field: 'merge_method', code: 'invalid' },
        ]);
      }
      const { sha } = await mergePull(ctx, pull, {
        sha: typeof req.body?.sha === 'string' ? req.body.sha : undefined,
        mergeMethod: method,
        commitTitle:
          typeof req.body?.commit_title === 'string'
            ? req.body.commit_title
            : undefined,
        commitMessage:
          typeof req.body?.commit_message === 'string'
            ? req.body.commit_message
            : undefined,
        mergerLogin: callerLogin(res),
      });
      ctx.responder.json(req, res, 200, {
        sha,
        merged: true,
        message: 'Pull Request successfully merged',
      });
    }),
  );

  router.get(
    '/pulls/:number/reviews',
    route(async (req, res) => {
      const pull = findPull(ctx, req);
      const reviews = ctx.store.reviews
        .filter(review => review.pullNumber === pull.number)
        .sort((a, b) => a.id - b.id);
      ctx.responder.json(
        req,
        res,
        200,
        paginate(req, res, reviews).map(review => reviewJson(ctx, review)),
      );
    }),
  );

  router.post(
    '/pulls/:number/reviews',
    route(async (req, res) => {
      const pull = findPull(ctx, req);
      const login = callerLogin(res);
      const event = req.body?.event;
      const body = typeof req.body?.body === 'string' ? req.body.body : '';
      if (login === pull.userLogin && event === 'APPROVE') {
        throw new GithubError(422, 'Unprocessable Entity', [
          'Can not approve your own pull request',
        ]);
      }
      if (login === pull.userLogin && event === 'REQUEST_CHANGES') {
        throw new GithubError(422, 'Unprocessable Entity', [
          'Can not request changes on your own pull request',
        ]);
      }
      if ((event === 'COMMENT' || event === 'REQUEST_CHANGES') && !body) {
        throw new GithubError(422, 'Unprocessable Entity', [
          "Body can't be blank",
        ]);
      }
      const states: Record<string, ReviewRecord['state']> = {
        APPROVE: 'APPROVED',
        REQUEST_CHANGES: 'CHANGES_REQUESTED',
        COMMENT: 'COMMENTED',
      };
      if (event !== undefined && !states[event]) {
        throw validationFailed([
          { resource: 'PullRequestReview', field: 'event', code: 'invalid' },
        ]);
      }
      const review = await ctx.lock.run(async () => {
        const live = await pullLive(ctx, pull, 'list');
        const record: ReviewRecord = {
          id: ctx.store.nextId(),
          pullNumber: pull.number,
          userLogin: login,
          body,
          state: event ? states[event] : 'PENDING',
          commitId:
            typeof req.body?.commit_id === 'string'
              ? req.body.commit_id
              : live.headSha,
          submittedAt: nowIso(),
        };
        ctx.store.reviews.push(record);
        ctx.store.save();
        return record;
      });
      ctx.responder.json(req, res, 200, reviewJson(ctx, review));
    }),
  );
}

async function createPull(
  ctx: GithubContext,
  req: Request,
  title: string,
  headParam: string,
  baseRef: string,
  login: string,
): Promise<PullRecord> {
  const headRef = parseHead(ctx, headParam);
  const baseSha = await branchHead(ctx, baseRef);
  if (!baseSha)
    throw validationFailed([
      { resource: 'PullRequest', field: 'base', code: 'invalid' },
    ]);
  const headSha = headRef ? await branchHead(ctx, headRef) : null;
  if (!headRef || !headSha)
    throw validationFailed([
      { resource: 'PullRequest', field: 'head', code: 'invalid' },
    ]);
  if (
    ctx.store.pulls.some(
      pull =>
        pull.state === 'open' &&
        pull.headRef === headRef &&
        pull.baseRef === baseRef,
    )
  ) {
    throw validationFailed([
      {
        resource: 'PullRequest',
        code: 'custom',
        message: `A pull request already exists for ${ctx.owner}:${headRef}.`,
      },
    ]);
  }
  if (await ctx.repo.isAncestor(headSha, baseSha)) {
    throw validationFailed([
      {
        resource: 'PullRequest',
        code: 'custom',
        message: `No commits between ${baseRef} and ${headRef}`,
      },
    ]);
  }
  const now = nowIso();
  const pull: PullRecord = {
    number: ctx.store.nextNumber(),
    id: ctx.store.nextId(),
    title,
    body: typeof req.body?.body === 'string' ? req.body.body : null,
    state: 'open',
    userLogin: login,
    headRef,
    baseRef,
    createdAt: now,
    updatedAt: now,
    labels: [],
    draft: req.body?.draft === true,
  };
  ctx.store.pulls.push(pull);
  ctx.store.save();
  return pull;
}

/** "branch" or "owner:branch" → branch; another owner's fork is not something this repo has. */
function parseHead(ctx: GithubContext, head: string): string {
  const colon = head.indexOf(':');
  if (colon < 0) return head;
  return head.slice(0, colon).toLowerCase() === ctx.owner.toLowerCase()
    ? head.slice(colon + 1)
    : '';
}

function findPull(ctx: GithubContext, req: Request): PullRecord {
  const pull = ctx.store.pull(Number(req.params.number));
  if (!pull) throw notFound();
  return pull;
}

function reviewJson(ctx: GithubContext, review: ReviewRecord) {
  const html = `${repoHtmlUrl(ctx)}/pull/${review.pullNumber}`;
  return {
    id: review.id,
    node_id: nodeId('PRR', review.id),
    user: userByLogin(ctx, review.userLogin),
    body: review.body,
    state: review.state,
    html_url: `${html}#pullrequestreview-${review.id}`,
    pull_request_url: `${repoApiUrl(ctx)}/pulls/${review.pullNumber}`,
    author_association: 'MEMBER',
    submitted_at: review.state === 'PENDING' ? undefined : review.submittedAt,
    commit_id: review.commitId,
  };
}
