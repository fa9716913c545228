import { Exchange } from '../exchange';

export const PRODUCT_GITHUB_HEADERS = { 'user-agent': 'backstage-plugin-promotions octokit-rest.js/20.1.2', accept: 'application/vnd.github.v3+json' };
/** GitHub answers carry a request id; the simulator's injected faults do not. */
export const GITHUB_RESPONSE_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-github-request-id': 'AB12:3456' };

/** An exchange as the recorder stores it; `url` may carry a query. */
export function exchange(method: string, url: string, overrides: Partial<Exchange> & { response?: unknown; request?: unknown } = {}): Exchange {
  const [path, ...query] = url.split('?');
  const { response, request, ...rest } = overrides;
  return {
    suite: 'example',
    method,
    path,
    query: query.join('?'),
    reqHeaders: path.startsWith('/github/') ? PRODUCT_GITHUB_HEADERS : { accept: 'application/json' },
    reqBody: request === undefined ? '' : JSON.stringify(request),
    status: 200,
    resHeaders: path.startsWith('/github/') ? GITHUB_RESPONSE_HEADERS : { 'content-type': 'application/json' },
    resBody: response === undefined ? '' : JSON.stringify(response),
    ...rest,
  };
}

export const SHA = '3f2c1b0a9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b';

/** A git/get-ref answer as GitHub shapes it. */
export const GIT_REF = {
  ref: 'refs/heads/main',
  node_id: 'REF_kwDOA',
  url: 'https://api.github.com/repos/refplat/platform/git/refs/heads/main',
  object: { sha: SHA, type: 'commit', url: `https://api.github.com/repos/refplat/platform/git/commits/${SHA}` },
};

/** An Argo CD Application as the API server and Argo CD's REST API return it. */
export function application(status: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'alpha-shop-dev', namespace: 'argocd', labels: { 'refplat.org/team': 'alpha' } },
    spec: {
      project: 'default',
      destination: { server: 'https://kubernetes.default.svc', namespace: 'alpha-shop-dev' },
      source: { repoURL: 'https://github.com/refplat/platform.git', path: 'gitops/deploy/alpha/shop/dev', targetRevision: 'main' },
      ...spec,
    },
    status: {
      sync: { status: 'Synced', revision: SHA },
      health: { status: 'Healthy' },
      reconciledAt: '2026-11-30T10:00:00Z',
      ...status,
    },
  };
}

/** An Argo Rollout mid-canary. */
export function rollout(status: Record<string, unknown> = {}) {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name: 'storefront', namespace: 'alpha-shop-dev', generation: 3 },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'storefront' } },
      strategy: { canary: { steps: [{ setWeight: 25 }, { pause: { duration: '30s' } }] } },
    },
    status: { phase: 'Paused', currentStepIndex: 1, stableRS: '5f7d9c', currentPodHash: '6b8e0d', observedGeneration: '3', ...status },
  };
}
