import { conflictResponse } from '../../__testUtils__/errors';
import { errorMessage } from './errorMessage';

const conflict = (body: unknown) =>
  conflictResponse(body, 'application/json; charset=utf-8');

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
