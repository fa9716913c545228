import type { RequestHandler, Response } from 'express';
import { callerLogin } from './responder';

/** GitHub's documented ceiling on content-generating requests, per identity. */
export interface WriteLimits {
  perMinute: number;
  perHour: number;
}

/** What GitHub documents: "no more than 80 content-generating requests per minute and no more than 500 per hour". */
export const GITHUB_WRITE_LIMITS: Readonly<WriteLimits> = { perMinute: 80, perHour: 500 };

/**
 * `promotions.platformRepo.writePacing` for a plugin writing to this simulator:
 * a tenth of octokit's spacing for GitHub (1 s, and 3 s for PRs, comments and
 * merges), still one write at a time. The simulator asks for no pacing; at
 * GitHub's, a test waited about eight seconds on every promotion it opened and
 * merged. Tests of the write budget keep GitHub's.
 */
export const SIMULATOR_WRITE_PACING = { writes: { milliseconds: 100 }, pullRequests: { milliseconds: 300 } } as const;

/**
 * `promotions.platformRepo.writeBudget` for a plugin writing to this simulator
 * in tests: one no test file reaches. A test file's backends write to one
 * simulator for minutes, at a tenth of GitHub's pacing, more than GitHub's
 * minute and hour allow one identity (the simulator enforces no limit unless
 * asked, see `writeLimits`). A write over the budget waits, up to a minute:
 * longer than a person's dialog waits in the browser tests. The write budget's
 * own tests keep GitHub's.
 */
export const SIMULATOR_WRITE_BUDGET = { perMinute: 100_000, perHour: 1_000_000 } as const;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

const SECONDARY_RATE_LIMIT_DOCS =
  'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits';

/**
 * GitHub's secondary limit on writes, in sliding windows per identity: a
 * write over either ceiling is refused with the seconds until the oldest
 * write in that window leaves it. A refused write is not counted.
 */
export class SecondaryWriteLimit {
  /** Each identity's admitted writes in the last hour, oldest first (epoch ms). */
  private readonly writes = new Map<string, number[]>();

  constructor(private readonly limits: WriteLimits) {}

  /** Counts the write and answers undefined, or answers the seconds to wait (nothing counted). */
  admit(identity: string, now = Date.now()): number | undefined {
    const inHour = (this.writes.get(identity) ?? []).filter(at => at > now - HOUR_MS);
    this.writes.set(identity, inHour);
    const inMinute = inHour.filter(at => at > now - MINUTE_MS);
    const waits: number[] = [];
    if (inMinute.length >= this.limits.perMinute) {
      waits.push(inMinute[inMinute.length - this.limits.perMinute] + MINUTE_MS - now);
    }
    if (inHour.length >= this.limits.perHour) {
      waits.push(inHour[inHour.length - this.limits.perHour] + HOUR_MS - now);
    }
    if (waits.length) return Math.max(1, Math.ceil(Math.max(...waits) / 1000));
    inHour.push(now);
    return undefined;
  }
}

/** Refuses an identity's write over the limits as GitHub does: 403, `retry-after`, the secondary-limit message. */
export function secondaryWriteLimitMiddleware(limit: SecondaryWriteLimit): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      next();
      return;
    }
    const retryAfter = limit.admit(callerLogin(res));
    if (retryAfter === undefined) {
      next();
      return;
    }
    sendSecondaryRateLimit(res, retryAfter);
  };
}

/** GitHub's answer to a request over a secondary rate limit. */
export function sendSecondaryRateLimit(
  res: Response,
  retryAfterSeconds: number,
  message = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
): void {
  res
    .status(403)
    .set({ 'retry-after': String(retryAfterSeconds), 'content-type': 'application/json; charset=utf-8' })
    .send(JSON.stringify({ message, documentation_url: SECONDARY_RATE_LIMIT_DOCS }));
}
