import http from 'node:http';
import { AddressInfo } from 'node:net';
import { CliError, EXIT, PromotionsClient } from './client';

type Answer = { status: number; body: string };

/** A stand-in backend answering every request alike, recording what it was asked. */
async function backendAnswering(answer: Answer) {
  const requests: Array<{ method?: string; url?: string; authorization?: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', chunk => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // fetch keeps connections alive: end them, or the server never closes.
  const close = () => new Promise(resolve => {
    server.close(resolve);
    server.closeAllConnections();
  });
  return { url, requests, close };
}

describe('PromotionsClient (CLI)', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => Promise.all(closers.splice(0).map(close => close())));

  async function clientAnswering(answer: Answer) {
    const backend = await backendAnswering(answer);
    closers.push(backend.close);
    return { client: new PromotionsClient(`${backend.url}/`, 'token-1'), requests: backend.requests };
  }

  it('reads a promotion through the generated client, with the token', async () => {
    const promotion = { id: 'p-1', status: 'merged', pullRequest: { url: 'https://pr/1' } };
    const { client, requests } = await clientAnswering({ status: 200, body: JSON.stringify({ promotion, events: [] }) });
    expect(await client.promotion('p-1')).toEqual({ promotion, events: [] });
    expect(requests).toEqual([{ method: 'GET', url: '/api/promotions/promotions/p-1', authorization: 'Bearer token-1', body: '' }]);
  });

  it('invokes an action and answers its output', async () => {
    const { client, requests } = await clientAnswering({ status: 200, body: JSON.stringify({ output: { text: 'why' } }) });
    expect(await client.invoke('explain', { product: 'alpha/shop' })).toEqual({ text: 'why' });
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/promotions/.backstage/actions/v1/actions/promotions:explain/invoke',
      body: JSON.stringify({ product: 'alpha/shop' }),
    });
  });

  it.each([
    [409, EXIT.refused],
    [403, EXIT.notAllowed],
    [401, EXIT.notAllowed],
    [404, EXIT.failed],
  ])('answers %i with the backend\'s reason and exit code %i', async (status, exitCode) => {
    const body = JSON.stringify({ error: { name: 'SomeError', message: 'the reason' } });
    const { client } = await clientAnswering({ status, body });
    const failure = client.promotion('p-1');
    await expect(failure).rejects.toBeInstanceOf(CliError);
    await expect(failure).rejects.toMatchObject({ message: `${status}: the reason`, exitCode });
  });

  it('says which backend it could not reach', async () => {
    const backend = await backendAnswering({ status: 200, body: '{}' });
    await backend.close();
    const failure = new PromotionsClient(backend.url, 'token-1').promotion('p-1');
    await expect(failure).rejects.toMatchObject({
      message: expect.stringContaining(`Could not reach ${backend.url}/api/promotions/promotions/p-1`),
      exitCode: EXIT.failed,
    });
  });
});
