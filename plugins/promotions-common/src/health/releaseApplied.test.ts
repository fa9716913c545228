import { loadFixture, modifiedFixture } from '../__testUtils__/fixtures';
import type { Application, ApplicationSource } from '../argo/types';
import { ApplicationShape, judgeReleaseApplied, ReleaseAppliedInput } from './releaseApplied';
import type { HealthVerdict } from './verdict';

const SERVICE = 'storefront';
const RELEASED = `sha256:${'d'.repeat(4)}${'e'.repeat(60)}`; // sha256:ddddeeeeeeee…
const OLD = `sha256:${'a'.repeat(4)}${'b'.repeat(60)}`; // sha256:aaaabbbbbbbb…
const PLATFORM = { host: 'github.com', owner: 'refplat', repo: 'platform' };
const PLATFORM_SHA = '1f2e3d4c5b6a79880796a5b4c3d2e1f001122334';
const APP_SHA = '0123456789abcdef0123456789abcdef01234567';

const platformSource: ApplicationSource = {
  repoURL: 'https://github.com/refplat/platform.git',
  path: 'gitops/releases/alpha/shop',
  targetRevision: 'main',
  directory: { include: 'test.yaml' },
};
const kustomizeSource = (digest: string): ApplicationSource => ({
  repoURL: 'https://github.com/alpha/shop-app.git',
  path: 'k8s/overlays/test',
  targetRevision: 'HEAD',
  kustomize: {
    images: [
      `ghcr.io/alpha/storefront=ghcr.io/alpha/storefront@${digest}`,
      `ghcr.io/alpha/cart=ghcr.io/alpha/cart@sha256:${'c'.repeat(64)}`,
    ],
  },
});
const helmSource = (digest: string): ApplicationSource => ({
  repoURL: 'https://github.com/alpha/shop-app.git',
  path: 'charts/shop',
  targetRevision: 'HEAD',
  helm: {
    parameters: [
      { name: 'storefront.image.repository', value: 'ghcr.io/alpha/storefront' },
      { name: 'storefront.image.digest', value: digest },
    ],
  },
});
const placeholderSource: ApplicationSource = {
  repoURL: 'https://github.com/alpha/shop-app.git',
  path: 'k8s/overlays/test',
  targetRevision: 'HEAD',
};

/**
 * The real Synced+Healthy Application (argocd-app-synced-healthy.yaml) with its source(s), synced
 * revision(s) and comparedTo replaced — synthetic shapes on a real object.
 */
function single(source: ApplicationSource, revision?: string, comparedTo: ApplicationSource = source): Application {
  return modifiedFixture('argocd-app-synced-healthy.yaml', a => {
    a.metadata.name = 'alpha-shop-test';
    a.spec.source = source;
    a.status.sync.revision = revision;
    a.status.sync.comparedTo = { source: structuredClone(comparedTo), destination: a.spec.destination };
  });
}

function multi(sources: ApplicationSource[], revisions: string[], comparedTo = sources): Application {
  return modifiedFixture('argocd-app-synced-healthy.yaml', a => {
    a.metadata.name = 'alpha-shop-test';
    delete a.spec.source;
    a.spec.sources = sources;
    delete a.status.sync.revision;
    a.status.sync.revisions = revisions;
    a.status.sync.comparedTo = { sources: structuredClone(comparedTo), destination: a.spec.destination };
  });
}

interface Row {
  name: string;
  application: Application;
  carries?: ReleaseAppliedInput['platformRevisionCarriesRelease'];
  releasedDigest?: string;
  verdict: HealthVerdict;
  shape: ApplicationShape;
  detail: string;
}

const ROWS: Row[] = [
  // --- the platform repo itself ---
  {
    name: 'platform repo, synced revision carries the Release',
    application: single(platformSource, PLATFORM_SHA),
    carries: { [PLATFORM_SHA]: true },
    verdict: 'healthy',
    shape: 'platform-repo',
    detail: 'Platform repo source: synced revision 1f2e3d4 carries the current Release',
  },
  {
    name: 'platform repo, synced revision older than the Release',
    application: single(platformSource, PLATFORM_SHA),
    carries: { [PLATFORM_SHA]: false },
    verdict: 'progressing',
    shape: 'platform-repo',
    detail: 'Platform repo source: ArgoCD is synced to revision 1f2e3d4, which does not carry the current Release yet',
  },
  {
    name: 'platform repo, revision could not be read (a real unknown)',
    application: single(platformSource, PLATFORM_SHA),
    carries: { [PLATFORM_SHA]: undefined },
    verdict: 'unknown',
    shape: 'platform-repo',
    detail: 'Platform repo source: could not read revision 1f2e3d4 of the platform repo to compare its Release file',
  },
  {
    name: 'platform repo, not compared yet (no revision)',
    application: single(platformSource),
    verdict: 'progressing',
    shape: 'platform-repo',
    detail: 'Platform repo source: ArgoCD has not compared a platform repo commit yet',
  },
  // --- an app repo with the digest injected (the seeds' shape) ---
  {
    name: 'app repo, kustomize images inject the Release digest, comparedTo is the spec',
    application: single(kustomizeSource(RELEASED), APP_SHA),
    verdict: 'healthy',
    shape: 'app-repo',
    detail: 'App repo source: the spec injects sha256:ddddeeeeeeee… (kustomize images) for storefront and ArgoCD compared against this spec (revision 0123456)',
  },
  {
    name: 'app repo, the app-repo revision is never looked up (an empty map is fine)',
    application: single(kustomizeSource(RELEASED), APP_SHA),
    carries: {},
    verdict: 'healthy',
    shape: 'app-repo',
    detail: 'App repo source: the spec injects sha256:ddddeeeeeeee… (kustomize images) for storefront and ArgoCD compared against this spec (revision 0123456)',
  },
  {
    name: 'app repo, comparedTo stale (ApplicationSet wrote the new digest, ArgoCD has not compared it)',
    application: single(kustomizeSource(RELEASED), APP_SHA, kustomizeSource(OLD)),
    verdict: 'progressing',
    shape: 'app-repo',
    detail: 'App repo source: the spec injects sha256:ddddeeeeeeee… (kustomize images) for storefront, but ArgoCD has not compared against it yet (status.sync.comparedTo injects sha256:aaaabbbbbbbb… (kustomize images) for storefront)',
  },
  {
    name: "app repo, comparedTo older only in another service's digest (cart changed) → healthy for storefront",
    application: single(kustomizeSource(RELEASED), APP_SHA, {
      ...kustomizeSource(RELEASED),
      kustomize: { images: [`ghcr.io/alpha/storefront=ghcr.io/alpha/storefront@${RELEASED}`, `ghcr.io/alpha/cart=ghcr.io/alpha/cart@${OLD}`] },
    }),
    verdict: 'healthy',
    shape: 'app-repo',
    detail: 'App repo source: ArgoCD compared a spec injecting sha256:ddddeeeeeeee… for storefront; the spec has changed since for other Services only',
  },
  {
    name: 'app repo, no comparedTo at all → progressing',
    application: modifiedFixture('argocd-app-synced-healthy.yaml', a => {
      a.metadata.name = 'alpha-shop-test';
      a.spec.source = kustomizeSource(RELEASED);
      a.status.sync.revision = APP_SHA;
      delete a.status.sync.comparedTo;
    }),
    verdict: 'progressing',
    shape: 'app-repo',
    detail: 'App repo source: the spec injects sha256:ddddeeeeeeee… (kustomize images) for storefront, but ArgoCD has not compared against it yet (status.sync.comparedTo injects nothing for storefront)',
  },
  {
    name: 'app repo, spec still injects the previous digest (ApplicationSet not regenerated)',
    application: single(kustomizeSource(OLD), APP_SHA),
    verdict: 'progressing',
    shape: 'app-repo',
    detail: 'App repo source: the Application spec injects sha256:aaaabbbbbbbb… (kustomize images) for storefront but the Release names sha256:ddddeeeeeeee…; the ApplicationSet has not regenerated the Application yet',
  },
  {
    name: 'app repo, spec without any injected image (overlay :placeholder only)',
    application: single(placeholderSource, APP_SHA),
    verdict: 'progressing',
    shape: 'app-repo',
    detail: 'App repo source: the Application spec injects no image for storefront (kustomize images or Helm parameters); the ApplicationSet has not written the Release into it yet',
  },
  {
    name: 'app repo, tag-only override (no digest)',
    application: single(
      { ...placeholderSource, kustomize: { images: ['ghcr.io/alpha/storefront=ghcr.io/alpha/storefront:placeholder'] } },
      APP_SHA,
    ),
    verdict: 'progressing',
    shape: 'app-repo',
    detail: 'App repo source: the Application spec injects ghcr.io/alpha/storefront=ghcr.io/alpha/storefront:placeholder (kustomize images, no digest) for storefront but the Release names sha256:ddddeeeeeeee…; the ApplicationSet has not regenerated the Application yet',
  },
  {
    name: 'app repo, nothing released for the service',
    application: single(kustomizeSource(RELEASED), APP_SHA),
    releasedDigest: undefined,
    verdict: 'unknown',
    shape: 'app-repo',
    detail: 'App repo source: the Release names no digest for storefront to look for in the Application spec',
  },
  {
    name: 'app repo, Helm parameters inject the Release digest',
    application: single(helmSource(RELEASED), APP_SHA),
    verdict: 'healthy',
    shape: 'app-repo',
    detail: 'App repo source: the spec injects sha256:ddddeeeeeeee… (Helm parameter) for storefront and ArgoCD compared against this spec (revision 0123456)',
  },
  {
    name: 'app repo, Helm parameters with the previous digest',
    application: single(helmSource(OLD), APP_SHA),
    verdict: 'progressing',
    shape: 'app-repo',
    detail: 'App repo source: the Application spec injects sha256:aaaabbbbbbbb… (Helm parameter) for storefront but the Release names sha256:ddddeeeeeeee…; the ApplicationSet has not regenerated the Application yet',
  },
  // --- multi-source: each source by its own kind ---
  {
    name: 'multi-source, app repo injects the digest and the platform repo (values ref) carries the Release',
    application: multi([kustomizeSource(RELEASED), { ...platformSource, ref: 'values' }], [APP_SHA, PLATFORM_SHA]),
    carries: { [PLATFORM_SHA]: true },
    verdict: 'healthy',
    shape: 'multi-source',
    detail: 'Multi-source Application: platform repo source #2: synced revision 1f2e3d4 carries the current Release; app repo source #1: the spec injects sha256:ddddeeeeeeee… (kustomize images) for storefront and ArgoCD compared against this spec (revision 0123456)',
  },
  {
    name: 'multi-source, the platform repo source lags behind the Release',
    application: multi([kustomizeSource(RELEASED), { ...platformSource, ref: 'values' }], [APP_SHA, PLATFORM_SHA]),
    carries: { [PLATFORM_SHA]: false },
    verdict: 'progressing',
    shape: 'multi-source',
    detail: 'Multi-source Application: platform repo source #2: ArgoCD is synced to revision 1f2e3d4, which does not carry the current Release yet',
  },
  {
    name: 'multi-source, the app repo source injects the previous digest',
    application: multi([kustomizeSource(OLD), platformSource], [APP_SHA, PLATFORM_SHA]),
    carries: { [PLATFORM_SHA]: true },
    verdict: 'progressing',
    shape: 'multi-source',
    detail: 'Multi-source Application: app repo source #1: the Application spec injects sha256:aaaabbbbbbbb… (kustomize images) for storefront but the Release names sha256:ddddeeeeeeee…; the ApplicationSet has not regenerated the Application yet',
  },
  {
    name: 'multi-source, app repo sources inject nothing for the service: the platform repo decides',
    application: multi([placeholderSource, platformSource], [APP_SHA, PLATFORM_SHA]),
    carries: { [PLATFORM_SHA]: true },
    verdict: 'healthy',
    shape: 'multi-source',
    detail: 'Multi-source Application: platform repo source #2: synced revision 1f2e3d4 carries the current Release',
  },
  {
    name: 'multi-source of app repos only, comparedTo stale',
    application: multi([kustomizeSource(RELEASED), placeholderSource], [APP_SHA, APP_SHA], [kustomizeSource(OLD), placeholderSource]),
    verdict: 'progressing',
    shape: 'multi-source',
    detail: 'Multi-source Application: app repo source #1: the spec injects sha256:ddddeeeeeeee… (kustomize images) for storefront, but ArgoCD has not compared against it yet (status.sync.comparedTo injects sha256:aaaabbbbbbbb… (kustomize images) for storefront)',
  },
  // --- shapes the rule did not expect: never unknown ---
  {
    name: 'no spec.source or spec.sources at all',
    application: modifiedFixture('argocd-app-synced-healthy.yaml', a => {
      a.metadata.name = 'alpha-shop-test';
      delete a.spec.source;
    }),
    verdict: 'unhealthy',
    shape: 'unrecognised',
    detail: 'Application alpha-shop-test has no spec.source or spec.sources, so which Release ArgoCD applied cannot be told',
  },
  {
    name: 'real fixture as is: a config-management-plugin source injecting no image',
    application: loadFixture<Application>('argocd-app-synced-healthy.yaml'),
    verdict: 'progressing',
    shape: 'app-repo',
    detail: 'App repo source: the Application spec injects no image for storefront (kustomize images or Helm parameters); the ApplicationSet has not written the Release into it yet',
  },
];

describe('judgeReleaseApplied: has ArgoCD applied the current Release, by Application shape', () => {
  it.each(ROWS)('$name → $verdict', row => {
    const judged = judgeReleaseApplied(SERVICE, {
      releasedDigest: 'releasedDigest' in row ? row.releasedDigest : RELEASED,
      application: row.application,
      platformRepo: PLATFORM,
      platformRevisionCarriesRelease: row.carries ?? {},
    });
    expect(judged).toEqual({ verdict: row.verdict, shape: row.shape, detail: row.detail });
  });

  it('compares digests case-insensitively', () => {
    const judged = judgeReleaseApplied(SERVICE, {
      releasedDigest: RELEASED.toUpperCase().replace('SHA256', 'sha256'),
      application: single(kustomizeSource(RELEASED), APP_SHA),
      platformRepo: PLATFORM,
      platformRevisionCarriesRelease: {},
    });
    expect(judged.verdict).toBe('healthy');
  });
});
