import { injectedImages } from './injectedImages';
import type { ServiceImageQuery } from './serviceImages';
import type { ApplicationSource } from './types';

const D = `sha256:${'d'.repeat(64)}`;
const UPPER = `sha256:${'D'.repeat(64)}`;
const REPO = 'https://github.com/alpha/shop-app.git';

const kustomize = (...images: string[]): ApplicationSource => ({
  repoURL: REPO,
  path: 'k8s/overlays/dev',
  kustomize: { images },
});
const helm = (
  parameters: Array<{ name?: string; value?: string }>,
  extra: Partial<ApplicationSource> = {},
): ApplicationSource => ({ repoURL: REPO, path: 'charts/shop', helm: { parameters }, ...extra });

describe('injectedImages: what an ApplicationSet wrote into a source for one Service', () => {
  it.each<[string, ApplicationSource, Array<{ via: string; digest?: string }>]>([
    ['kustomize name=newName@digest', kustomize(`ghcr.io/alpha/storefront=ghcr.io/alpha/storefront@${D}`), [{ via: 'kustomize images', digest: D }]],
    ['kustomize newName@digest (no old name)', kustomize(`reg.example.com:5000/alpha/storefront@${D}`), [{ via: 'kustomize images', digest: D }]],
    ['kustomize name:tag@digest', kustomize(`ghcr.io/alpha/storefront:1.4.2@${D}`), [{ via: 'kustomize images', digest: D }]],
    ['kustomize short old name', kustomize(`storefront=ghcr.io/alpha/storefront@${D}`), [{ via: 'kustomize images', digest: D }]],
    ['kustomize renamed image (old name is the Service)', kustomize(`storefront=ghcr.io/mirror/sf@${D}`), [{ via: 'kustomize images', digest: D }]],
    ['kustomize digest in upper case', kustomize(`ghcr.io/alpha/storefront@${UPPER}`), [{ via: 'kustomize images', digest: D }]],
    ['kustomize tag only (no digest yet)', kustomize('ghcr.io/alpha/storefront=ghcr.io/alpha/storefront:placeholder'), [{ via: 'kustomize images', digest: undefined }]],
    ['kustomize other services only', kustomize(`ghcr.io/alpha/cart@${D}`, `ghcr.io/alpha/storefront-worker@${D}`), []],
    ['Helm parameter named after the Service', helm([{ name: 'storefront.image.digest', value: D }]), [{ via: 'Helm parameter', digest: D }]],
    ['Helm parameter with the Service as a middle segment', helm([{ name: 'services.storefront.image', value: `ghcr.io/alpha/x@${D}` }]), [{ via: 'Helm parameter', digest: D }]],
    ['Helm parameter holding the Service image', helm([{ name: 'images[0]', value: `ghcr.io/alpha/storefront@${D}` }]), [{ via: 'Helm parameter', digest: D }]],
    ['Helm chart of the Service', helm([{ name: 'image.digest', value: D }], { chart: 'storefront', path: undefined }), [{ via: 'Helm parameter', digest: D }]],
    ['Helm release named after the Service', { repoURL: REPO, path: 'chart', helm: { releaseName: 'storefront', parameters: [{ name: 'image.digest', value: D }] } }, [{ via: 'Helm parameter', digest: D }]],
    ['Helm source path of the Service', helm([{ name: 'image.digest', value: D }], { path: 'services/storefront' }), [{ via: 'Helm parameter', digest: D }]],
    ['Helm digest parameter that names no Service (shared chart): not matched', helm([{ name: 'image.digest', value: D }]), []],
    ['Helm parameter of another Service', helm([{ name: 'cart.image.digest', value: D }]), []],
    ['Helm parameter naming the Service without a digest', helm([{ name: 'storefront.replicas', value: '3' }, { name: 'storefront.image.tag', value: '1.4.2' }]), []],
    ['Helm parameter without a value', helm([{ name: 'storefront.image.digest' }]), []],
    ['no kustomize or Helm options', { repoURL: REPO, path: 'k8s/overlays/dev' }, []],
  ])('%s', (_case, source, expected) => {
    expect(injectedImages(source, { service: 'storefront' }).map(({ via, digest }) => ({ via, digest }))).toEqual(expected);
  });

  it('keeps the override as written, for the reason shown on the ladder', () => {
    expect(
      injectedImages(
        {
          kustomize: { images: [`storefront=ghcr.io/alpha/storefront@${D}`] },
          helm: { parameters: [{ name: 'storefront.image', value: `ghcr.io/alpha/storefront@${D}` }] },
        },
        { service: 'storefront' },
      ).map(image => image.text),
    ).toEqual([`storefront=ghcr.io/alpha/storefront@${D}`, `storefront.image=ghcr.io/alpha/storefront@${D}`]);
  });

  it('an empty Service name matches nothing', () => {
    expect(injectedImages(kustomize(`ghcr.io/alpha/storefront@${D}`), { service: '' })).toEqual([]);
  });
});

describe('injectedImages: a Service found by the released digest first, its name (promotions.images) telling what is injected instead', () => {
  const E = `sha256:${'e'.repeat(64)}`;
  const SEEDS = 'registry.refplat.org/team-alpha/shop-storefront';
  const storefront: ServiceImageQuery = { team: 'alpha', product: 'shop', service: 'storefront', releasedDigest: D };
  const digests = (source: ApplicationSource, query = storefront) => injectedImages(source, query).map(image => image.digest);

  it.each<[string, ApplicationSource, Array<string | undefined>]>([
    ['kustomize name@digest, named as the seeds name it', kustomize(`${SEEDS}@${D}`), [D]],
    ['kustomize name=newName@digest, the seeds\' name on both sides', kustomize(`${SEEDS}=${SEEDS}@${D}`), [D]],
    ['kustomize name=newName:tag@digest', kustomize(`${SEEDS}=${SEEDS}:1.4.2@${D}`), [D]],
    ['kustomize image of any name carrying the released digest', kustomize(`ghcr.io/acme/sf-build@${D}`), [D]],
    ['kustomize old name of any form, new name carrying the released digest', kustomize(`placeholder/sf=ghcr.io/acme/sf@${D}`), [D]],
    ['kustomize mismatch: another digest injected for the Service (seeds\' name)', kustomize(`${SEEDS}=${SEEDS}@${E}`), [E]],
    ['kustomize mismatch: the Service\'s image still at its placeholder tag', kustomize(`${SEEDS}:placeholder`), [undefined]],
    ['kustomize the simulator\'s old form (<team>/<service>)', kustomize(`registry.refplat.org/alpha/storefront@${E}`), [E]],
    ['kustomize another Service\'s image with another digest', kustomize(`registry.refplat.org/team-alpha/shop-cart@${E}`), []],
    ['kustomize another Service\'s image carrying the same digest: the same bytes', kustomize(`registry.refplat.org/team-alpha/shop-cart@${D}`), [D]],
    [
      'kustomize the same digest under another Service\'s name, and the Service\'s own image at another: both, so not applied',
      kustomize(`registry.refplat.org/team-alpha/shop-cart@${D}`, `${SEEDS}@${E}`),
      [D, E],
    ],
    ['kustomize a team-beta image of the same name is not alpha\'s', kustomize(`registry.refplat.org/team-beta/shop-storefront@${E}`), []],
    ['Helm parameter carrying the released digest, named for nothing', helm([{ name: 'image.digest', value: D }]), [D]],
    ['Helm parameter holding the seeds\' image of the Service', helm([{ name: 'images[0]', value: `${SEEDS}@${E}` }]), [E]],
    ['Helm parameter of another digest that names nothing', helm([{ name: 'image.digest', value: E }]), []],
  ])('%s', (_case, source, expected) => {
    expect(digests(source)).toEqual(expected);
  });

  it('reads the configured repository template, with the registry when one is set', () => {
    const naming = { repository: '{registry}/{team}/apps/{service}-image', registry: 'reg.acme.io' };
    const source = kustomize(`reg.acme.io/alpha/apps/svc-a-image@${E}`, `mirror.acme.io/alpha/apps/svc-a-image@${E}`);
    expect(digests(source, { ...storefront, service: 'svc-a', naming })).toEqual([E]);
    expect(digests(source, { ...storefront, service: 'svc-a', naming: { repository: naming.repository } })).toEqual([E, E]);
  });
});
