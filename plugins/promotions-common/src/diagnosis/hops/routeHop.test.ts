import { loadFixture } from '../../__testUtils__/fixtures';
import { evidence } from '../__testUtils__/hopEvidence';
import type { HTTPRoute } from './hopEvidence';
import { routeHop } from './routeHop';

const route = (file: string) => loadFixture<HTTPRoute>(file);
const notAllowed = route('httproute-not-allowed-by-listeners.yaml');
const backendNotFound = route('httproute-backend-not-found.yaml');
const accepted = route('httproute-accepted.yaml');

describe('routeHop', () => {
  it.each([
    ['Accepted=False', [notAllowed], 'stalled'],
    ['ResolvedRefs=False', [backendNotFound], 'stalled'],
    ['accepted and resolved', [accepted], 'completed'],
    ['one of two routes refused', [accepted, backendNotFound], 'stalled'],
    ['no parent has written a status yet', [{ metadata: { name: 'storefront' } }], 'unknown'],
    ['no route read', [], 'unknown'],
  ])('%s: %s', (_case, routes, mark) => {
    expect(routeHop(evidence({ routes })).mark).toBe(mark);
  });

  it.each([
    [
      notAllowed,
      'HTTPRoute storefront is not accepted by Gateway platform-gateways/public (NotAllowedByListeners): Not accepted: Gateway platform-gateways/public does not allow Routes from namespace alpha-shop-test',
    ],
    [
      backendNotFound,
      'HTTPRoute storefront cannot resolve its backends on Gateway platform-gateways/public (BackendNotFound): Service alpha-shop-test/storefront-canary not found',
    ],
  ])('says which condition and why', (refused, said) => {
    expect(routeHop(evidence({ routes: [refused] }))).toMatchObject({
      hop: 'route',
      evidence: said,
      seenAt: '2025-06-01T11:05:09Z',
      lookAt: { kind: 'kubectl', text: 'kubectl -n alpha-shop-test describe httproute storefront' },
    });
  });
});
