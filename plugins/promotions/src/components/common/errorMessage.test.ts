import { ResponseError } from '@backstage/errors';
import { errorMessage } from './errorMessage';

function conflict(body: unknown) {
  const text = JSON.stringify(body);
  return ResponseError.fromResponse({
    ok: false,
    status: 409,
    statusText: 'Conflict',
    headers: { get: () => 'application/json; charset=utf-8' },
    text: async () => text,
  } as any);
}

describe('errorMessage', () => {
  it("gives the backend's message of a Backstage error body", async () => {
    const error = await conflict({
      error: { name: 'ConflictError', message: 'test already carries storefront' },
      response: { statusCode: 409 },
    });
    expect(errorMessage(error)).toBe('test already carries storefront');
  });

  it('digs the message out of a bare {error} body', async () => {
    const error = await conflict({ error: { name: 'ConflictError', message: 'you requested it' } });
    expect(errorMessage(error)).toBe('you requested it');
  });

  it('uses the message of any other error', () => {
    expect(errorMessage(new Error('network down'))).toBe('network down');
  });
});
