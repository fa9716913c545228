import http from 'node:http';
import { AddressInfo } from 'node:net';
import { startRecording } from './recorder';

/** A server that answers like the simulator's express routes: headers set one by one, JSON in two writes. */
function startServer(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', chunk => (body += chunk));
    req.on('end', () => {
      res.statusCode = 201;
      res.setHeader('content-type', 'application/json');
      res.setHeader('etag', '"v1"');
      res.setHeader('x-github-request-id', 'R1');
      res.setHeader('x-internal', 'kept out');
      res.write('{"seen":');
      res.end(JSON.stringify(body));
    });
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('the recorder', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = await startServer();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise(resolve => server.close(resolve)));

  it('records the exchanges under the simulator mount points as they went over the wire', async () => {
    const recording = startRecording('recorder');
    try {
      await fetch(`${base}/github/repos/o/r/pulls?state=open`, {
        method: 'POST',
        headers: { 'user-agent': 'backstage-plugin-promotions', 'content-type': 'application/json', authorization: 'token secret' },
        body: '{"title":"t"}',
      }).then(r => r.text());
      await fetch(`${base}/api/promotions/health`).then(r => r.text());
      await fetch(`${base}/k8s/apis/argoproj.io/v1alpha1/namespaces/argocd/applications`).then(r => r.text());
    } finally {
      recording.stop();
    }
    expect(recording.exchanges).toEqual([
      {
        suite: 'recorder',
        method: 'POST',
        path: '/github/repos/o/r/pulls',
        query: 'state=open',
        reqHeaders: expect.objectContaining({ 'user-agent': 'backstage-plugin-promotions', 'content-type': 'application/json' }),
        reqBody: '{"title":"t"}',
        status: 201,
        resHeaders: { 'content-type': 'application/json', etag: '"v1"', 'x-github-request-id': 'R1' },
        resBody: '{"seen":"{\\"title\\":\\"t\\"}"',
      },
      expect.objectContaining({ method: 'GET', path: '/k8s/apis/argoproj.io/v1alpha1/namespaces/argocd/applications', query: '', reqBody: '' }),
    ]);
    expect(recording.exchanges[0].reqHeaders).not.toHaveProperty('authorization');
  });

  it('leaves http.Server as it was when stopped', async () => {
    // Core modules are shared by the test files of one Jest worker, so compare
    // with what was there before rather than with a pristine http.Server.
    const emit = http.Server.prototype.emit;
    const ownBefore = Object.prototype.hasOwnProperty.call(http.Server.prototype, 'emit');
    const recording = startRecording('stopped');
    expect(http.Server.prototype.emit).not.toBe(emit);
    recording.stop();
    expect(http.Server.prototype.emit).toBe(emit);
    expect(Object.prototype.hasOwnProperty.call(http.Server.prototype, 'emit')).toBe(ownBefore);
    await fetch(`${base}/github/rate_limit`).then(r => r.text());
    expect(recording.exchanges).toEqual([]);
  });
});
