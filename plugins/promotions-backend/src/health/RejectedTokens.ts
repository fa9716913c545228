import { reconnectDelayMs } from './reconnectDelay';

/** How long a rejected token is left alone: doubling from 30 s, at most 10 minutes. */
export const TOKEN_RETRY = { baseMs: 30_000, capMs: 600_000 };

/**
 * The health sources whose credentials were rejected (HTTP 401). A wrong token
 * does not fix itself: asking again on every view only fills the server's
 * log, so a source is asked again after a doubling wait, and at once after
 * one of its answers succeeds.
 */
export class RejectedTokens {
  private readonly rejected = new Map<string, { attempt: number; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds until the source may be asked again; 0 when it may now. */
  waitMs(source: string): number {
    const entry = this.rejected.get(source);
    return entry ? Math.max(0, entry.until - this.now()) : 0;
  }

  /** The source rejected its credentials again: answers how long it is now left alone. */
  reject(source: string): number {
    const attempt = (this.rejected.get(source)?.attempt ?? -1) + 1;
    const waitMs = reconnectDelayMs(attempt, TOKEN_RETRY, () => 1);
    this.rejected.set(source, { attempt, until: this.now() + waitMs });
    return waitMs;
  }

  accept(source: string): void {
    this.rejected.delete(source);
  }
}
