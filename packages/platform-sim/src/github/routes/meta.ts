import type { Router } from 'express';
import { GithubContext } from '../context';
import { callerLogin } from '../responder';
import { userByLogin } from '../shapes';
import { route } from '../routeHelpers';

/** Caller identity (GET /user) and GET /users/{login}. */
export function registerMetaRoutes(router: Router, ctx: GithubContext): void {
  router.get(
    '/user',
    route(async (req, res) =>
      ctx.responder.json(req, res, 200, userByLogin(ctx, callerLogin(res))),
    ),
  );
  router.get(
    '/users/:login',
    route(async (req, res) =>
      ctx.responder.json(req, res, 200, userByLogin(ctx, req.params.login)),
    ),
  );
}
