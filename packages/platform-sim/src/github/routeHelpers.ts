import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isSafeRevision } from '../git/gitRepo';
import { GitIdentity } from '../git/types';
import { GithubContext } from './context';
import { notFound } from './errors';

/** Express 4 does not catch rejected promises; this forwards them to the error handler. */
export function route(
  handler: (req: Request, res: Response) => Promise<void>,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).catch(next);
  };
}

/** The wildcard part of a route like /git/ref/* (a ref or path that may contain slashes). */
export function wildcard(req: Request): string {
  return String((req.params as Record<string, string>)[0] ?? '');
}

/**
 * Resolves what GitHub accepts as a ref: a branch name, heads/x, refs/heads/x,
 * a tag, or a (full) commit sha. Returns the commit sha or null.
 */
export async function resolveRef(
  ctx: GithubContext,
  ref: string,
): Promise<string | null> {
  const clean = ref.replace(/^refs\//, '');
  if (!clean || !isSafeRevision(clean)) return null;
  const candidates = [
    `refs/heads/${clean}`,
    `refs/${clean}`,
    `refs/tags/${clean}`,
  ];
  const refs = new Map(
    (await ctx.repo.listRefs('refs/')).map(entry => [entry.ref, entry.sha]),
  );
  for (const candidate of candidates) {
    const sha = refs.get(candidate);
    if (sha) return ctx.repo.resolveCommit(sha);
  }
  if (/^[0-9a-f]{7,40}$/.test(clean)) return ctx.repo.resolveCommit(clean);
  return null;
}

export async function resolveRefOr404(
  ctx: GithubContext,
  ref: string,
  message = 'No commit found for SHA: ',
): Promise<string> {
  const sha = await resolveRef(ctx, ref);
  if (!sha)
    throw notFound(message.endsWith(': ') ? `${message}${ref}` : message);
  return sha;
}

/** The head of a branch, or null. */
export function branchHead(
  ctx: GithubContext,
  branch: string,
): Promise<string | null> {
  return ctx.repo.readRef(`refs/heads/${branch}`);
}

/**
 * The author or committer a request body names (contents and git data
 * routes): `fallback` unless it gives both name and email, and `fallback`'s
 * date where it gives none.
 */
export function identityFrom(value: any, fallback: GitIdentity): GitIdentity {
  if (
    !value ||
    typeof value.name !== 'string' ||
    typeof value.email !== 'string'
  )
    return fallback;
  return {
    name: value.name,
    email: value.email,
    date: typeof value.date === 'string' ? value.date : fallback.date,
  };
}
