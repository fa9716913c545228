import type { RequestHandler } from 'express';
import { GithubResponder } from './responder';
import { GithubError } from './errors';

/**
 * Accepts `Authorization: token X` or `Bearer X` for a configured token and
 * records the caller's login; anything else is 401 Bad credentials.
 * A caller whose rate limit is used up gets 403, except conditional GETs,
 * which may still be answered 304 for free.
 */
export function githubAuth(
  tokens: Record<string, string>,
  responder: GithubResponder,
): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header.trim());
    const login = match ? tokens[match[1]] : undefined;
    if (!login) {
      responder.error(req, res, new GithubError(401, 'Bad credentials'));
      return;
    }
    res.locals.githubLogin = login;
    const conditional =
      req.method === 'GET' && Boolean(req.headers['if-none-match']);
    if (!conditional && responder.isExhausted(login)) {
      responder.sendRateLimited(res, login);
      return;
    }
    next();
  };
}
