import { application, exchange, rollout } from '../__testUtils__/exchanges';
import { createArgoCdChecker } from './argocd';
import { createCrdValidator } from './crd';
import { createKubernetesChecker } from './kubernetes';

const crds = { application: createCrdValidator('application-crd.yaml'), rollout: createCrdValidator('rollout-crd.yaml') };
const argocd = createArgoCdChecker(crds);
const kubernetes = createKubernetesChecker(crds);

const SELECTOR = 'refplat.org%2Fteam%3Dalpha%2Crefplat.org%2Fproduct%3Dshop';
const RESOURCE_QUERY = 'namespace=alpha-shop-dev&resourceName=storefront&group=argoproj.io&kind=Rollout&version=v1alpha1&appNamespace=argocd';

describe('the Argo CD REST check', () => {
  it('accepts a labelled list and a live Rollout as Argo CD answers them', () => {
    const list = argocd.check(exchange('GET', `/argocd/api/v1/applications?selector=${SELECTOR}`, { response: { metadata: {}, items: [application()] } }));
    expect(list).toMatchObject({ operationId: 'ApplicationService_List', requestProblems: [], responseProblems: [] });
    const resource = argocd.check(
      exchange('GET', `/argocd/api/v1/applications/alpha-shop-dev/resource?${RESOURCE_QUERY}`, { response: { manifest: JSON.stringify(rollout()) } }),
    );
    expect(resource).toMatchObject({ operationId: 'ApplicationService_GetResource', requestProblems: [], responseProblems: [] });
  });

  it.each([
    ['a Kubernetes parameter name', `/argocd/api/v1/applications?labelSelector=${SELECTOR}`, 'query parameter labelSelector is not declared for ApplicationService_List'],
    ['a route Argo CD does not have', '/argocd/api/v1/products/alpha/shop', 'no GET /api/v1/products/alpha/shop in the swagger'],
  ])('fails %s', (_name, url, problem) => {
    expect(argocd.check(exchange('GET', url, { response: {} })).requestProblems).toEqual([problem]);
  });

  it('reports Applications and Rollouts the CRDs would reject or prune', () => {
    const pruned = argocd.check(
      exchange('GET', `/argocd/api/v1/applications?selector=${SELECTOR}`, { response: { items: [application({ canaryWeight: 25 })] } }),
    );
    expect(pruned.responseProblems).toEqual(['items[0] alpha-shop-dev: Application CRD does not declare (an API server would prune): .status.canaryWeight']);
    const wrongType = argocd.check(
      exchange('GET', `/argocd/api/v1/applications/alpha-shop-dev/resource?${RESOURCE_QUERY}`, { response: { manifest: JSON.stringify(rollout({ currentStepIndex: 'one' })) } }),
    );
    expect(wrongType.responseProblems).toEqual(['manifest storefront: Rollout CRD schema: /status/currentStepIndex must be integer']);
  });

  it('does not judge the shape of a proxy-style error page', () => {
    const outage = argocd.check(exchange('GET', `/argocd/api/v1/applications?selector=${SELECTOR}`, { status: 503, resBody: '<html>Service Unavailable</html>' }));
    expect(outage).toMatchObject({ injected: true, responseProblems: [] });
  });
});

describe('the Kubernetes check', () => {
  const APPLICATIONS = '/k8s/apis/argoproj.io/v1alpha1/namespaces/argocd/applications';

  it('accepts a labelled list and a Rollout read as an API server answers them', () => {
    const list = kubernetes.check(exchange('GET', `${APPLICATIONS}?labelSelector=${SELECTOR}`, { response: { kind: 'ApplicationList', apiVersion: 'argoproj.io/v1alpha1', items: [application()] } }));
    expect(list).toMatchObject({ operationId: 'listNamespaced argoproj.io/v1alpha1 applications', requestProblems: [], responseProblems: [] });
    const one = kubernetes.check(exchange('GET', '/k8s/apis/argoproj.io/v1alpha1/namespaces/alpha-shop-dev/rollouts/storefront', { response: rollout() }));
    expect(one).toMatchObject({ operationId: 'getNamespaced argoproj.io/v1alpha1 rollouts', requestProblems: [], responseProblems: [] });
  });

  it('fails a list parameter the API server does not take, and reports a wrong list kind and error body', () => {
    const result = kubernetes.check(exchange('GET', `${APPLICATIONS}?selector=${SELECTOR}`, { response: { kind: 'List', items: [] } }));
    expect(result.requestProblems).toEqual(['query selector is not a Kubernetes list parameter']);
    expect(result.responseProblems).toEqual(['list kind is List, not ApplicationList']);
    const missing = kubernetes.check(exchange('GET', '/k8s/apis/argoproj.io/v1alpha1/namespaces/x/rollouts/y', { status: 404, response: { message: 'not found' } }));
    expect(missing.responseProblems).toEqual(['error body is not a Status object']);
  });
});
