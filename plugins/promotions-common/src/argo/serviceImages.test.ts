import { imagesForService, isServiceImage, namesService, registryRepository, ServiceImageQuery } from './serviceImages';

const D = `sha256:${'d'.repeat(64)}`;
const E = `sha256:${'e'.repeat(64)}`;
const storefront: ServiceImageQuery = { team: 'alpha', product: 'shop', service: 'storefront', releasedDigest: D };

describe('namesService: is an image named as the Service\'s?', () => {
  it.each<[string, ServiceImageQuery, boolean]>([
    [`registry.refplat.org/team-alpha/shop-storefront@${E}`, storefront, true],
    ['registry.refplat.org/team-alpha/shop-storefront:placeholder', storefront, true],
    [`localhost:5000/team-alpha/shop-storefront@${E}`, storefront, true],
    [`team-alpha/shop-storefront@${E}`, storefront, true],
    [`registry.refplat.org/alpha/storefront@${E}`, storefront, true], // the simulator's old form
    ['storefront:1.2', storefront, true], // a Service-named image
    [`registry.refplat.org/team-alpha/shop-cart@${D}`, storefront, false],
    [`registry.refplat.org/team-beta/shop-storefront@${E}`, storefront, false],
    [`registry.refplat.org/team-alpha/shop-storefront-worker@${E}`, storefront, false],
    [`ghcr.io/alpha/shop/storefront-worker@${E}`, storefront, false],
    [`registry.refplat.org/team-alpha/shop-storefront@${E}`, { service: 'storefront' }, false], // no Product to render
    [`reg.acme.io/shop/web/x@${E}`, { ...storefront, service: 'x', naming: { repository: 'reg.acme.io/{product}/web/{service}' } }, true],
    [`other.io/shop/web/y@${E}`, { ...storefront, service: 'y', naming: { repository: '{registry}/{product}/web/{service}', registry: 'reg.acme.io' } }, true], // last segment
    [`other.io/shop/web/z-svc@${E}`, { ...storefront, service: 'z', naming: { repository: '{registry}/{product}/web/{service}-svc', registry: 'reg.acme.io' } }, false],
    [`reg.acme.io/shop/web/z-svc@${E}`, { ...storefront, service: 'z', naming: { repository: '{registry}/{product}/web/{service}-svc', registry: 'reg.acme.io' } }, true],
    [`anything@${E}`, { ...storefront, service: '' }, false],
  ])('%s → %p', (image, query, expected) => {
    expect(namesService(image, query)).toBe(expected);
  });
});

describe('isServiceImage: the released digest first, then the name', () => {
  it.each<[string, ServiceImageQuery, boolean]>([
    [`ghcr.io/acme/whatever@${D}`, storefront, true],
    [`ghcr.io/acme/whatever@${D.toUpperCase().replace('SHA256', 'sha256')}`, storefront, true],
    [`ghcr.io/acme/whatever@${E}`, storefront, false],
    [`ghcr.io/acme/whatever@${D}`, { ...storefront, releasedDigest: undefined }, false],
    [`registry.refplat.org/team-alpha/shop-storefront@${E}`, storefront, true],
    [`ghcr.io/acme/whatever@${D}`, { ...storefront, service: '' }, false],
  ])('%s', (image, query, expected) => {
    expect(isServiceImage(image, query)).toBe(expected);
  });
});

describe('imagesForService: the Service\'s running images (status.summary.images)', () => {
  const images = [
    `registry.refplat.org/team-alpha/shop-storefront@${E}`,
    `registry.refplat.org/team-alpha/shop-cart@${D}`,
    `registry.refplat.org/team-alpha/shop-checkout@${E}`,
    `mirror.acme.io/sf@${D}`,
    'nginx:latest',
  ];
  it.each<[string, ServiceImageQuery, string[]]>([
    ['by name and by digest (another Service built the same bytes)', storefront, [images[0], images[1], images[3]]],
    ['by name only, when the Release names another digest', { ...storefront, releasedDigest: `sha256:${'f'.repeat(64)}` }, [images[0]]],
    ['by digest only, when no image is named as the Service', { team: 'alpha', product: 'shop', service: 'payments', releasedDigest: D }, [images[1], images[3]]],
    ['neither', { team: 'alpha', product: 'shop', service: 'search', releasedDigest: `sha256:${'0'.repeat(64)}` }, []],
  ])('%s', (_case, query, expected) => {
    expect(imagesForService(images, query)).toEqual(expected);
  });
});

describe('registryRepository: the name the OCI distribution API knows a Service by', () => {
  const named = { team: 'alpha', product: 'shop', service: 'storefront' };
  it.each([
    ["the seeds' default", undefined, 'team-alpha/shop-storefront'],
    ['a configured registry', { registry: 'registry.refplat.org' }, 'team-alpha/shop-storefront'],
    ['a template with a host of its own', { repository: 'ghcr.io/acme/{product}/{service}' }, 'acme/shop/storefront'],
    ['a template without a host', { repository: '{team}/{service}' }, 'alpha/storefront'],
    ['localhost with a port', { repository: 'localhost:5000/{product}-{service}' }, 'shop-storefront'],
  ])('%s', (_case, naming, repository) => {
    expect(registryRepository(named, naming)).toBe(repository);
  });
});
