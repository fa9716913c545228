import { modifiedFixture } from '../__testUtils__/fixtures';
import {
  classifySources,
  comparedToCurrentSpec,
  platformRepoRevisions,
} from './applicationSources';
import type { Application } from './types';

const PLATFORM = { host: 'github.com', owner: 'refplat', repo: 'platform' };
const PLATFORM_SHA = '1f2e3d4c5b6a79880796a5b4c3d2e1f001122334';
const APP_SHA = '0123456789abcdef0123456789abcdef01234567';
const DIGEST = `sha256:${'d'.repeat(64)}`;

const platformSource = {
  repoURL: 'https://github.com/refplat/platform.git',
  path: 'gitops/releases/alpha/shop',
  targetRevision: 'main',
  directory: { include: 'dev.yaml' },
};
const appSource = {
  repoURL: 'git@github.com:alpha/shop-app.git',
  path: 'k8s/overlays/dev',
  targetRevision: 'HEAD',
  kustomize: { images: [`ghcr.io/alpha/storefront=ghcr.io/alpha/storefront@${DIGEST}`] },
};
const chartSource = {
  repoURL: 'https://charts.example.com',
  chart: 'storefront',
  targetRevision: '1.4.2',
  helm: { parameters: [{ name: 'image.digest', value: DIGEST }] },
};

/** The real Synced+Healthy Application with its source(s) and sync status replaced. */
function app(mutate: (a: any) => void): Application {
  return modifiedFixture('argocd-app-synced-healthy.yaml', a => {
    delete a.spec.source;
    delete a.status.sync.revision;
    mutate(a);
  });
}

function single(source: object, revision?: string) {
  return app(a => {
    a.spec.source = source;
    if (revision) a.status.sync.revision = revision;
    a.status.sync.comparedTo = { source: structuredClone(source) };
  });
}

function multi(sources: object[], revisions: string[]) {
  return app(a => {
    a.spec.sources = sources;
    a.status.sync.revisions = revisions;
    a.status.sync.comparedTo = { sources: structuredClone(sources) };
  });
}

describe('classifySources', () => {
  it.each([
    {
      shape: 'single platform-repo source',
      app: single(platformSource, PLATFORM_SHA),
      expected: { multiSource: false, kinds: ['platform-repo'], revisions: [PLATFORM_SHA] },
    },
    {
      shape: 'single app-repo source (kustomize, ssh URL)',
      app: single(appSource, APP_SHA),
      expected: { multiSource: false, kinds: ['app-repo'], revisions: [APP_SHA] },
    },
    {
      shape: 'single Helm chart source (a chart repository is not the platform repo)',
      app: single(chartSource, '1.4.2'),
      expected: { multiSource: false, kinds: ['app-repo'], revisions: ['1.4.2'] },
    },
    {
      shape: 'multi-source: app repo, then the platform repo as a values ref',
      app: multi([appSource, { ...platformSource, ref: 'values' }], [APP_SHA, PLATFORM_SHA]),
      expected: {
        multiSource: true,
        kinds: ['app-repo', 'platform-repo'],
        revisions: [APP_SHA, PLATFORM_SHA],
      },
    },
    {
      shape: 'multi-source preferred over a leftover spec.source',
      app: app(a => {
        a.spec.source = platformSource;
        a.spec.sources = [appSource];
        a.status.sync.revisions = [APP_SHA];
      }),
      expected: { multiSource: true, kinds: ['app-repo'], revisions: [APP_SHA] },
    },
    {
      shape: 'empty spec.sources falls back to spec.source',
      app: app(a => {
        a.spec.source = platformSource;
        a.spec.sources = [];
        a.status.sync.revision = PLATFORM_SHA;
      }),
      expected: { multiSource: false, kinds: ['platform-repo'], revisions: [PLATFORM_SHA] },
    },
    {
      shape: 'not compared yet: no revision',
      app: single(platformSource),
      expected: { multiSource: false, kinds: ['platform-repo'], revisions: [undefined] },
    },
    {
      shape: 'multi-source with fewer revisions than sources',
      app: multi([appSource, platformSource], [APP_SHA]),
      expected: { multiSource: true, kinds: ['app-repo', 'platform-repo'], revisions: [APP_SHA, undefined] },
    },
    {
      shape: 'no source at all',
      app: app(() => {}),
      expected: { multiSource: false, kinds: [], revisions: [] },
    },
  ])('$shape', ({ app: application, expected }) => {
    const classified = classifySources(application, PLATFORM);
    expect({
      multiSource: classified.multiSource,
      kinds: classified.sources.map(s => s.kind),
      revisions: classified.sources.map(s => s.revision),
    }).toEqual(expected);
  });
});

describe('platformRepoRevisions: only platform-repo revisions are worth looking up', () => {
  it.each([
    ['single platform-repo source', single(platformSource, PLATFORM_SHA), [PLATFORM_SHA]],
    ['single app-repo source', single(appSource, APP_SHA), []],
    ['Helm chart version', single(chartSource, '1.4.2'), []],
    [
      'multi-source, the platform repo twice at one revision',
      multi([platformSource, appSource, { ...platformSource, ref: 'values' }], [PLATFORM_SHA, APP_SHA, PLATFORM_SHA]),
      [PLATFORM_SHA],
    ],
    ['platform repo not compared yet', single(platformSource), []],
    ['no Application', undefined, []],
  ])('%s', (_shape, application, expected) => {
    expect(platformRepoRevisions(application, PLATFORM)).toEqual(expected);
  });
});

describe('comparedToCurrentSpec: did ArgoCD compare against the spec as it is now?', () => {
  it.each([
    ['single source, comparedTo equal', single(appSource), true],
    [
      'single source, same values in another key order',
      app(a => {
        a.spec.source = appSource;
        a.status.sync.comparedTo = {
          source: {
            kustomize: { images: [...appSource.kustomize.images] },
            targetRevision: 'HEAD',
            path: 'k8s/overlays/dev',
            repoURL: appSource.repoURL,
          },
        };
      }),
      true,
    ],
    [
      "empty fields the controller's serialiser omits",
      app(a => {
        a.spec.source = { ...appSource, chart: '', helm: { parameters: [] }, directory: { recurse: false } };
        a.status.sync.comparedTo = { source: appSource, destination: a.spec.destination };
      }),
      true,
    ],
    [
      'stale: comparedTo has the previous injected image',
      app(a => {
        a.spec.source = appSource;
        a.status.sync.comparedTo = {
          source: { ...appSource, kustomize: { images: [`ghcr.io/alpha/storefront=ghcr.io/alpha/storefront@sha256:${'a'.repeat(64)}`] } },
        };
      }),
      false,
    ],
    ['not compared yet: no comparedTo', app(a => (a.spec.source = appSource)), false],
    ['multi-source, comparedTo.sources equal', multi([appSource, platformSource], []), true],
    [
      'multi-source, one source changed since the comparison',
      app(a => {
        a.spec.sources = [appSource, platformSource];
        a.status.sync.comparedTo = { sources: [appSource, { ...platformSource, targetRevision: 'v1' }] };
      }),
      false,
    ],
    [
      'multi-source compared only as a single source (an older comparison)',
      app(a => {
        a.spec.sources = [appSource];
        a.status.sync.comparedTo = { source: appSource };
      }),
      false,
    ],
  ])('%s → %s', (_case, application, expected) => {
    expect(comparedToCurrentSpec(application)).toBe(expected);
  });
});
