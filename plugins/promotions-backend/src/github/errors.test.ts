import { ServiceUnavailableError } from '@backstage/errors';
import { PlatformRepoRateLimitedError } from '@refplat/plugin-promotions-node';
import { toUpstreamError } from './errors';

/** An error as octokit's RequestError carries a GitHub answer. */
const answered = (status: number, message: string, headers: Record<string, string> = {}) =>
  Object.assign(new Error(message), { status, response: { headers } });

describe('toUpstreamError', () => {
  it.each([
    ['a secondary limit with retry-after', answered(403, 'You have exceeded a secondary rate limit', { 'retry-after': '60' }), 60],
    ['a 429 with retry-after', answered(429, 'Too many requests', { 'retry-after': '5' }), 5],
    ['a primary limit (no requests left)', answered(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' }), undefined],
    ['a secondary limit without retry-after', answered(403, 'You have exceeded a secondary rate limit'), undefined],
  ])('calls %s a rate limit, with the wait GitHub asked for', (_name, error, retryAfterSeconds) => {
    const upstream = toUpstreamError(error, 'creating branch promotions/x');
    expect(upstream).toBeInstanceOf(PlatformRepoRateLimitedError);
    expect(upstream).toMatchObject({
      retryAfterSeconds,
      message: expect.stringMatching(/^GitHub failed while creating branch promotions\/x \(HTTP 4(03|29)\): /),
    });
  });

  it.each([
    ['a 403 that is no rate limit', answered(403, 'Resource not accessible by integration')],
    ['a 502', answered(502, 'Bad gateway', { 'retry-after': '1' })],
    ['a network failure', new Error('socket hang up')],
  ])('answers %s as GitHub failing, to be failed, not waited out', (_name, error) => {
    const upstream = toUpstreamError(error, 'creating branch promotions/x');
    expect(upstream).toBeInstanceOf(ServiceUnavailableError);
    expect(upstream).not.toBeInstanceOf(PlatformRepoRateLimitedError);
  });
});
