import http from 'http';
import { AddressInfo } from 'net';
import { mockCache } from '../__testUtils__/lightServices';
import { ArgoCdHealthSource, argoCdGet } from './ArgoCdHealthSource';
import { RejectedTokens } from './RejectedTokens';

const LABELS = { team: 'refplat.org/team', product: 'refplat.org/product' };

/** An ArgoCD API that answers 401 to every request until `accept` is set, counting requests. */
async function argoCd() {
  const state = { requests: 0, accept: false };
  const server = http.createServer((_req, res) => {
    state.requests++;
    res.setHeader('content-type', 'application/json');
    if (state.accept) {
      res.end(JSON.stringify({ items: [] }));
      return;
    }
    res.statusCode = 401;
    res.end(JSON.stringify({ error: 'invalid session: token is malformed', code: 16, message: 'invalid session: token is malformed' }));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { state, url, stop: () => new Promise(resolve => server.close(resolve)) };
}

describe('ArgoCdHealthSource with a token ArgoCD rejects', () => {
  it('says so, leaves the instance alone for a doubling wait, and asks again after it or once accepted', async () => {
    const argo = await argoCd();
    let now = 1_000_000;
    const source = new ArgoCdHealthSource(
      [{ name: 'argocd', baseUrl: argo.url, token: 'wrong', uiUrl: argo.url }],
      mockCache(),
      LABELS,
      new RejectedTokens(() => now),
    );
    try {
      const first = await source.listApplications();
      expect(first.errors).toEqual([
        expect.stringMatching(/^ArgoCD 'argocd' rejected the token \(HTTP 401 .*invalid session.*\): set promotions\.argocd\.token .*; asked again in 30 s$/),
      ]);
      expect(argo.state.requests).toBe(1);

      now += 10_000;
      const waiting = await source.listApplications();
      expect(waiting.errors).toEqual(["ArgoCD 'argocd' rejected the token (promotions.argocd.token); asked again in 20 s"]);
      expect(argo.state.requests).toBe(1);

      now += 20_000;
      expect((await source.listApplications()).errors).toEqual([expect.stringMatching(/asked again in 60 s$/)]);
      expect(argo.state.requests).toBe(2);

      argo.state.accept = true;
      now += 60_000;
      expect(await source.listApplications()).toEqual({ applications: [], errors: [] });
      expect(argo.state.requests).toBe(3);
    } finally {
      await argo.stop();
    }
  });
});

describe('ArgoCdHealthSource reading one view of a canarying Application', () => {
  it("reads each live Rollout once: the hop evidence takes the one the view's health just read", async () => {
    const seen: string[] = [];
    const rollout = { kind: 'Rollout', metadata: { name: 'api', namespace: 'shop-dev' }, status: { currentPodHash: 'abc' } };
    const server = http.createServer((req, res) => {
      seen.push(req.url!);
      res.setHeader('content-type', 'application/json');
      const url = new URL(req.url!, 'http://argocd');
      if (url.pathname.endsWith('/resource-tree')) res.end(JSON.stringify({ nodes: [] }));
      else if (url.pathname.endsWith('/resource') && url.searchParams.get('kind') === 'Rollout') res.end(JSON.stringify({ manifest: JSON.stringify(rollout) }));
      else res.end(JSON.stringify({ items: [] }));
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const source = new ArgoCdHealthSource([{ name: 'argocd', baseUrl: url, token: 't', uiUrl: url }], mockCache(), LABELS);
    const observed = {
      application: { metadata: { name: 'alpha-shop-dev', namespace: 'argocd', resourceVersion: '7' }, spec: { destination: { namespace: 'shop-dev' } } },
      source: 'argocd',
    };
    try {
      expect([...(await source.liveRollouts(observed, ['api'])).keys()]).toEqual(['api']);
      await source.hopEvidence(observed, 'api');
      expect(seen.filter(path => path.includes('kind=Rollout'))).toHaveLength(1);

      // Another listing (the next view) reads its Rollout afresh.
      await source.hopEvidence({ ...observed }, 'api');
      expect(seen.filter(path => path.includes('kind=Rollout'))).toHaveLength(2);
    } finally {
      await new Promise(resolve => server.close(resolve));
    }
  });
});

describe('argoCdGet with a byte limit', () => {
  it('cuts off an answer past the limit, even without Content-Length, and says when an answer is not JSON', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/large') {
        res.write('{"items":[');
        res.end(`${'"x",'.repeat(1000)}"x"]}`);
        return;
      }
      res.end(req.url === '/small' ? '{"items":[]}' : '<html>proxy error</html>');
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const instance = {
      name: 'main',
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      uiUrl: '',
      token: 't',
    };
    try {
      await expect(argoCdGet(instance, '/small', 1024)).resolves.toEqual({ items: [] });
      await expect(argoCdGet(instance, '/large', 1024)).rejects.toThrow(/answered GET \/large with more than 1024 bytes/);
      await expect(argoCdGet(instance, '/html', 1024)).rejects.toThrow(/answered GET \/html with something that is not JSON/);
    } finally {
      await new Promise(resolve => server.close(resolve));
    }
  });
});
