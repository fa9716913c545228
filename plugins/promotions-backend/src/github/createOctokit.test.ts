import http from 'http';
import { AddressInfo } from 'net';
import { mockLogger } from '../__testUtils__/lightServices';
import { ConfigReader } from '@backstage/config';
import { CreateOctokitOptions, createOctokit } from './createOctokit';
import { PlatformRepoUnansweredError } from '@refplat/plugin-promotions-node';
import { toUpstreamError } from './errors';

/** A GitHub on a free local port whose every request `handle` sees, recording when each arrived. */
async function fakeGithub(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const requests: string[] = [];
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    arrivals.push(Date.now());
    handle(req, res);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    requests,
    arrivals,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A GitHub that accepts connections and never answers. */
const stalledGithub = () => fakeGithub(() => {});

/** A GitHub that answers every request 201 at once. */
const answeringGithub = () =>
  fakeGithub((req, res) => {
    req.resume();
    res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
  });

/** The platform repo's octokit against a fake GitHub. */
const octokitFor = (host: string, options: Partial<CreateOctokitOptions> = {}) =>
  createOctokit({
    config: new ConfigReader({ integrations: { github: [{ host, apiBaseUrl: `http://${host}`, token: 't' }] } }),
    host,
    owner: 'refplat',
    repo: 'platform',
    logger: mockLogger(),
    ...options,
  });

describe('createOctokit', () => {
  it('gives up on a stalled call after its timeout, once, without retrying it', async () => {
    const github = await stalledGithub();
    try {
      const octokit = octokitFor(github.host, { requestTimeoutMs: 300 });
      const started = Date.now();
      const failure = await octokit.rest.pulls
        .create({ owner: 'refplat', repo: 'platform', head: 'b', base: 'main', title: 't' })
        .then(() => undefined, (error: unknown) => error);
      const elapsed = Date.now() - started;

      const upstream = toUpstreamError(failure, 'opening a pull request');
      expect(upstream.message).toBe('GitHub failed while opening a pull request: GitHub did not answer within 0.3 s');
      // The PR may exist all the same: the caller leaves it to be reconciled.
      expect(upstream).toBeInstanceOf(PlatformRepoUnansweredError);
      // Not retried: a retry would be a second request here, and the failure
      // would come only after the retry plugin's backoff (1 s, 4 s, 9 s).
      expect(github.requests).toEqual(['POST /repos/refplat/platform/pulls']);
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      github.stop();
    }
  });

  it.each([
    ['a refused connection', async () => {
      const github = await answeringGithub();
      github.stop();
      return github.host;
    }, /^GitHub failed while reading the ladder: GitHub at 127\.0\.0\.1:\d+ cannot be reached: nothing accepts connections at its address \(ECONNREFUSED\)$/],
    ['a host name that does not resolve', async () => 'github.invalid', /^GitHub failed while reading the ladder: GitHub at github\.invalid cannot be reached: its host name does not resolve \(DNS\) \(ENOTFOUND\)$/],
  ])('fails at once, not retried and without an HTTP status, on %s', async (_case, unreachableHost, message) => {
    const octokit = octokitFor(await unreachableHost());
    const started = Date.now();
    const failure = await octokit.rest.repos
      .get({ owner: 'refplat', repo: 'platform' })
      .then(() => undefined, (error: unknown) => error);
    const upstream = toUpstreamError(failure, 'reading the ladder');
    expect(upstream.message).toMatch(message);
    expect(upstream.name).toBe('ServiceUnavailableError');
    // The retry plugin would have waited 1 + 4 + 9 s before failing.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it.each([
    ["octokit's own: writes 1 s apart", {}, 1_000],
    ['promotions.platformRepo.writePacing: writes 400 ms apart', { writeSpacingMs: 400, pullRequestSpacingMs: 800 }, 400],
  ])('paces writes one at a time, %s', async (_case, pacing, spacingMs) => {
    const github = await answeringGithub();
    try {
      const octokit = octokitFor(github.host, pacing);
      const status = (sha: string) => octokit.rest.repos.createCommitStatus({ owner: 'refplat', repo: 'platform', sha, state: 'pending' });
      await Promise.all([status('a'), status('b'), status('c')]);
      const times = github.arrivals;
      expect(times).toHaveLength(3);
      // Started `spacingMs` apart; each arrives after its own network delay, which a loaded
      // machine stretches (the first, with its connection, most): the three span two spacings
      // but for that jitter. Unpaced, they would arrive within a few ms of each other.
      expect(times[2] - times[0]).toBeGreaterThanOrEqual(2 * spacingMs - 250);
    } finally {
      github.stop();
    }
  });

  it('retries a 5xx 3 times, after 1, 4 and 9 times promotions.platformRepo.retryBackoff', async () => {
    const github = await fakeGithub((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"unavailable"}');
    });
    try {
      const octokit = octokitFor(github.host, { retryBackoffMs: 100 });
      const failure = await octokit.rest.repos
        .get({ owner: 'refplat', repo: 'platform' })
        .then(() => undefined, (error: unknown) => error);
      expect(toUpstreamError(failure, 'reading the ladder').message).toMatch(/HTTP 503/);
      expect(github.requests).toEqual(Array(4).fill('GET /repos/refplat/platform'));
      const waits = github.arrivals.slice(1).map((at, i) => at - github.arrivals[i]);
      // Each wait at least its backoff; octokit's 1 s base would make them 1, 4 and 9 s.
      [100, 400, 900].forEach((backoff, i) => expect(waits[i]).toBeGreaterThanOrEqual(backoff - 20));
      expect(waits[2]).toBeLessThan(4_000);
    } finally {
      github.stop();
    }
  });
});
