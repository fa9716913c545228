import http from 'http';
import { AddressInfo } from 'net';

/** One request the proxy forwarded: `status` is 0 until the upstream answers, 502 when it could not be reached. */
export interface ProxiedRequest {
  method: string;
  /** The path and query, e.g. `/v2/team-alpha/shop-storefront/manifests/sha256:…`. */
  path: string;
  status: number;
}

export interface CountingProxy {
  /** `http://127.0.0.1:<port>`: give it to the client in place of the upstream's URL. */
  url: string;
  /** Every request forwarded so far, in arrival order. */
  requests: ProxiedRequest[];
  /** The requests after the first `mark` ones: `const mark = proxy.requests.length; …; proxy.since(mark)`. */
  since(mark: number): ProxiedRequest[];
  /**
   * Once every request forwarded so far has its answer's status: a view does not wait for a slow
   * upstream, so on a loaded machine a request can arrive here and be answered after the view.
   */
  settled(): Promise<void>;
  /** Stops listening and drops open connections: its URL refuses from then on. */
  stop(): Promise<void>;
}

/**
 * A local HTTP proxy in front of `upstream` (e.g. docker-registry) that
 * forwards every request as it is and records it, so a test counts what a
 * client asked of a real server without instrumenting the client.
 */
export async function startCountingProxy(upstream: string): Promise<CountingProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  let inFlight = 0;
  const waitingForSettled: Array<() => void> = [];
  const answered = (recorded: ProxiedRequest, status: number) => {
    recorded.status = status;
    inFlight -= 1;
    if (inFlight === 0) for (const resolve of waitingForSettled.splice(0)) resolve();
  };
  const server = http.createServer((incoming, outgoing) => {
    const recorded: ProxiedRequest = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', status: 0 };
    requests.push(recorded);
    inFlight += 1;
    const forwarded = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      answer => {
        answered(recorded, answer.statusCode ?? 502);
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', error => {
      if (recorded.status === 0) answered(recorded, 502);
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end(`the proxy could not reach ${target.origin}: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    since: mark => requests.slice(mark),
    settled: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>(resolve => waitingForSettled.push(resolve))),
    stop: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
