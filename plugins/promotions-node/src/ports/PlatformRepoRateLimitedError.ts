import { ServiceUnavailableError } from '@backstage/errors';

/**
 * The platform repo's host refused a write for its rate limits (GitHub's
 * secondary limit on writes above all), still after the client waited as it
 * was told. Work that can wait (the write queue's) keeps its place and tries
 * again later instead of failing.
 *
 * @public
 */
export class PlatformRepoRateLimitedError extends ServiceUnavailableError {
  constructor(
    message: string,
    /** How long the host asked to wait (`retry-after`), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
