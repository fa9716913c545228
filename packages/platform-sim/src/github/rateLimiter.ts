const WINDOW_MS = 60 * 60 * 1000;

interface Bucket {
  used: number;
  resetAt: number;
}

export interface RateLimitSnapshot {
  limit: number;
  remaining: number;
  used: number;
  /** Epoch seconds when the window resets. */
  reset: number;
}

/** GitHub's core rate limit: `limit` requests per identity per hour. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly limit: number) {}

  private bucket(identity: string, now: number): Bucket {
    let bucket = this.buckets.get(identity);
    if (!bucket || now >= bucket.resetAt) {
      bucket = { used: 0, resetAt: now + WINDOW_MS };
      this.buckets.set(identity, bucket);
    }
    return bucket;
  }

  peek(identity: string, now = Date.now()): RateLimitSnapshot {
    const bucket = this.bucket(identity, now);
    return {
      limit: this.limit,
      used: bucket.used,
      remaining: Math.max(0, this.limit - bucket.used),
      reset: Math.ceil(bucket.resetAt / 1000),
    };
  }

  consume(identity: string, now = Date.now()): RateLimitSnapshot {
    const bucket = this.bucket(identity, now);
    if (bucket.used < this.limit) bucket.used += 1;
    return this.peek(identity, now);
  }

  /** Test helper: pretend `used` calls were already made this hour. */
  setUsed(identity: string, used: number, now = Date.now()): void {
    this.bucket(identity, now).used = Math.min(used, this.limit);
  }

  reset(): void {
    this.buckets.clear();
  }
}

export function rateLimitHeaders(
  snapshot: RateLimitSnapshot,
): Record<string, string> {
  return {
    'x-ratelimit-limit': String(snapshot.limit),
    'x-ratelimit-remaining': String(snapshot.remaining),
    'x-ratelimit-used': String(snapshot.used),
    'x-ratelimit-reset': String(snapshot.reset),
    'x-ratelimit-resource': 'core',
  };
}
