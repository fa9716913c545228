import type { Response } from 'supertest';

/** The answer to an identical request that gave up waiting for another to open the PR. */
const STILL_OPENING = /being opened by another request .*try again/;

/**
 * Sends `count` requests at once (`send(i)` sends the i-th) and settles them
 * as a client would: a request that gave up waiting for a concurrent one to
 * open its PR (409 "try again", which a loaded machine makes likely) is sent
 * once more after all have answered, when that PR is open. Answers the final
 * response of each request.
 */
export async function sendConcurrently(
  count: number,
  send: (i: number) => PromiseLike<Response>,
): Promise<Response[]> {
  const first = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  return Promise.all(
    first.map((response, i) =>
      response.status === 409 && STILL_OPENING.test(response.body.error?.message) ? send(i) : response,
    ),
  );
}
