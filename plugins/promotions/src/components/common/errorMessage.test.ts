import { conflictResponse } from '../../__testUtils__/errors';
import { errorMessage } from './errorMessage';

describe('errorMessage', () => {
  it("gives the backend's message of a Backstage error body", async () => {
    const error = await conflictResponse(
      {
        error: { name: 'ConflictError', message: 'test already carries storefront' },
        request: { method: 'POST', url: '/api/promotions/products/alpha/shop/promotions' },
        response: { statusCode: 409 },
      },
      'application/json; charset=utf-8',
    );
    expect(errorMessage(error)).toBe('test already carries storefront');
  });

  it('names the status and the text of a body that is not one (a proxy answering)', async () => {
    const error = await conflictResponse('upstream busy', 'text/plain');
    expect(errorMessage(error)).toBe('Request failed with status 409 Conflict, "upstream busy"');
  });

  it('uses the message of any other error', () => {
    expect(errorMessage(new Error('network down'))).toBe('network down');
    expect(errorMessage('plain')).toBe('plain');
  });
});
