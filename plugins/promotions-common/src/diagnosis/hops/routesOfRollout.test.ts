import { loadFixture } from '../../__testUtils__/fixtures';
import type { Rollout } from '../../argo/types';
import type { HTTPRoute } from './hopEvidence';
import { routeNodesOfRollout, routesOfRollout } from './routesOfRollout';

// Backends storefront-stable and storefront-canary, in alpha-shop-test.
const storefrontRoute = loadFixture<HTTPRoute>('httproute-accepted.yaml');
const namespace = 'alpha-shop-test';

const route = (name: string, services: string[], routeNamespace?: string): HTTPRoute => ({
  metadata: { name, ...(routeNamespace ? { namespace: routeNamespace } : {}) },
  spec: { rules: [{ backendRefs: services.map(service => ({ name: service, port: 8080 })) }] },
});
const cartRoute = route('cart', ['cart-stable', 'cart-canary'], namespace);
const publicRoute = route('shop-public', ['storefront'], namespace);

const rollout = (canary: Record<string, unknown>, blueGreen?: Record<string, unknown>): Rollout => ({
  metadata: { name: 'storefront', namespace },
  spec: { strategy: blueGreen ? { blueGreen } : { canary } },
});
const gatewayApi = (config: Record<string, unknown>) => ({ trafficRouting: { plugins: { 'argoproj-labs/gatewayAPI': config } } });
const services = { stableService: 'storefront-stable', canaryService: 'storefront-canary' };

describe('routesOfRollout', () => {
  const routes = [storefrontRoute, cartRoute, publicRoute];

  it.each<[string, Rollout | undefined, HTTPRoute[], string[]]>([
    ['the Gateway API plugin names the route', rollout({ ...services, ...gatewayApi({ httpRoute: 'shop-public' }) }), routes, ['shop-public']],
    [
      'the plugin lists its routes (httpRoutes)',
      rollout({ ...gatewayApi({ httpRoutes: [{ name: 'storefront' }, { name: 'shop-public', useHeaderRoutes: true }] }) }),
      routes,
      ['storefront', 'shop-public'],
    ],
    ['the plugin names a route in its own namespace', rollout(gatewayApi({ httpRoute: 'storefront', namespace: 'gateways' })), routes, []],
    ['backendRefs name the stable or canary Service', rollout(services), routes, ['storefront']],
    ['backendRefs name the blue-green active Service', rollout({}, { activeService: 'cart-stable', previewService: 'x' }), routes, ['cart']],
    ['a Rollout naming no Service: backendRefs name the workload', rollout({}), routes, ['shop-public']],
    ['no Rollout read: backendRefs name the workload', undefined, routes, ['shop-public']],
    [
      "a backend of another kind or in another namespace is not the Rollout's",
      rollout(services),
      [
        { metadata: { name: 'imported', namespace }, spec: { rules: [{ backendRefs: [{ kind: 'ServiceImport', group: 'multicluster.x-k8s.io', name: 'storefront-stable' }] }] } },
        { metadata: { name: 'elsewhere', namespace }, spec: { rules: [{ backendRefs: [{ name: 'storefront-stable', namespace: 'beta-shop-test' }] }] } },
      ],
      [],
    ],
    ['a route without rules carries nothing', rollout(services), [{ metadata: { name: 'storefront' } }], []],
  ])('%s', (_case, rolloutRead, candidates, expected) => {
    expect(routesOfRollout(rolloutRead, 'storefront', namespace, candidates).map(r => r.metadata.name)).toEqual(expected);
  });
});

describe('routeNodesOfRollout', () => {
  const node = (name: string) => ({ kind: 'HTTPRoute', name, namespace, uid: name });
  const nodes = [node('storefront'), node('cart'), node('shop-public')];

  it('reads only the routes the Gateway API plugin names', () => {
    expect(routeNodesOfRollout(rollout(gatewayApi({ httpRoute: 'shop-public' })), namespace, nodes)).toEqual([node('shop-public')]);
  });

  it('reads every route when the Rollout routes its traffic otherwise: their backendRefs tell', () => {
    expect(routeNodesOfRollout(rollout({ ...services, trafficRouting: { nginx: { stableIngress: 'storefront' } } }), namespace, nodes)).toEqual(nodes);
    expect(routeNodesOfRollout(undefined, namespace, nodes)).toEqual(nodes);
  });
});
