import { createHash, randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { DOCS_URL, GithubError } from './errors';
import { RateLimiter, rateLimitHeaders } from './rateLimiter';

/** Rate-limit identity for unauthenticated answers. */
const ANONYMOUS = '(anonymous)';

/** The login of the caller, set by the auth middleware. */
export function callerLogin(res: Response): string {
  return res.locals.githubLogin as string;
}

/**
 * The one place GitHub answers are sent, so that every answer gets the rate
 * limit headers, every GET 200 gets a strong ETag, and a conditional request
 * answered 304 costs nothing.
 */
export class GithubResponder {
  constructor(private readonly limiter: RateLimiter) {}

  json(req: Request, res: Response, status: number, body: unknown): void {
    const login = res.locals.githubLogin as string | undefined;
    const text = JSON.stringify(body);
    commonHeaders(res);
    if (req.method === 'GET' && status === 200) {
      const etag = `"${createHash('sha256').update(text).digest('hex').slice(0, 40)}"`;
      res.setHeader('ETag', etag);
      res.setHeader('Cache-Control', 'private, max-age=60, s-maxage=60');
      if (login && ifNoneMatch(req, etag)) {
        // Not modified: GitHub does not count this against the rate limit.
        this.setRateHeaders(res, login, false);
        res.status(304).end();
        return;
      }
    }
    if (!login) {
      // Unauthenticated answers (401) still carry headers; they cost nothing here.
      for (const [name, value] of Object.entries(
        rateLimitHeaders(this.limiter.peek(ANONYMOUS)),
      ))
        res.setHeader(name, value);
    } else {
      const before = this.limiter.peek(login);
      if (before.remaining === 0) {
        this.sendRateLimited(res, login);
        return;
      }
      this.setRateHeaders(res, login, true);
    }
    res.status(status).type('application/json; charset=utf-8').send(text);
  }

  /** Raw file bytes (Accept: application/vnd.github.raw), with the same ETag and rate-limit rules. */
  raw(req: Request, res: Response, content: Buffer): void {
    const login = res.locals.githubLogin as string | undefined;
    commonHeaders(res);
    const etag = `"${createHash('sha256').update(content).digest('hex').slice(0, 40)}"`;
    res.setHeader('ETag', etag);
    if (login && ifNoneMatch(req, etag)) {
      this.setRateHeaders(res, login, false);
      res.status(304).end();
      return;
    }
    if (login) this.setRateHeaders(res, login, true);
    res.status(200).type('application/vnd.github.raw').send(content);
  }

  empty(_req: Request, res: Response, status: number): void {
    const login = res.locals.githubLogin as string | undefined;
    commonHeaders(res);
    if (login) this.setRateHeaders(res, login, true);
    res.status(status).end();
  }

  error(req: Request, res: Response, error: GithubError): void {
    for (const [name, value] of Object.entries(error.headers))
      res.setHeader(name, value);
    this.json(req, res, error.status, error.body());
  }

  /** 403 primary rate limit, as GitHub sends it once x-ratelimit-remaining reaches 0. */
  sendRateLimited(res: Response, login: string): void {
    commonHeaders(res);
    const snapshot = this.limiter.peek(login);
    for (const [name, value] of Object.entries(rateLimitHeaders(snapshot)))
      res.setHeader(name, value);
    res
      .status(403)
      .type('application/json; charset=utf-8')
      .send(
        JSON.stringify({
          message: `API rate limit exceeded for user ID ${login}. If you reach out to GitHub Support for help, please include the request ID.`,
          documentation_url:
            'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
          status: '403',
        }),
      );
  }

  isExhausted(login: string): boolean {
    return this.limiter.peek(login).remaining === 0;
  }

  private setRateHeaders(res: Response, login: string, consume: boolean): void {
    const snapshot = consume
      ? this.limiter.consume(login)
      : this.limiter.peek(login);
    for (const [name, value] of Object.entries(rateLimitHeaders(snapshot)))
      res.setHeader(name, value);
  }
}

function commonHeaders(res: Response): void {
  res.setHeader('X-GitHub-Media-Type', 'github.v3; format=json');
  res.setHeader('X-GitHub-Request-Id', randomUUID());
  res.setHeader('Vary', 'Accept, Authorization, Cookie, X-GitHub-OTP');
}

function ifNoneMatch(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const wanted = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map(tag => tag.trim().replace(/^W\//, ''))
    .some(tag => tag === wanted || tag === '*');
}

export { DOCS_URL };
