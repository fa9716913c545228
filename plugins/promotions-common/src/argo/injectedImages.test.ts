import { injectedImages } from './injectedImages';
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
    expect(injectedImages(source, 'storefront').map(({ via, digest }) => ({ via, digest }))).toEqual(expected);
  });

  it('keeps the override as written, for the reason shown on the ladder', () => {
    expect(
      injectedImages(
        {
          kustomize: { images: [`storefront=ghcr.io/alpha/storefront@${D}`] },
          helm: { parameters: [{ name: 'storefront.image', value: `ghcr.io/alpha/storefront@${D}` }] },
        },
        'storefront',
      ).map(image => image.text),
    ).toEqual([`storefront=ghcr.io/alpha/storefront@${D}`, `storefront.image=ghcr.io/alpha/storefront@${D}`]);
  });

  it('an empty Service name matches nothing', () => {
    expect(injectedImages(kustomize(`ghcr.io/alpha/storefront@${D}`), '')).toEqual([]);
  });
});
