import {
  findRollout,
  imageDigest,
  imageRepository,
  isReconciledAfterLastOperation,
  runningImages,
  syncedRevision,
  syncedRevisions,
} from './application';
import type { Application } from './types';
import { loadFixture, modifiedFixture } from '../__testUtils__/fixtures';

const D1 = `sha256:${'1'.repeat(64)}`;
const SHA_A = 'ea8759964626a583667a2bfd08f334ec2070040a';
const SHA_B = '0123456789abcdef0123456789abcdef01234567';

/** A synthetic Application: the real Synced+Healthy one, modified. */
function synthetic(mutate: (app: any) => void): Application {
  return modifiedFixture('argocd-app-synced-healthy.yaml', mutate);
}

describe('Application helpers on the real fixtures', () => {
  const healthy = loadFixture<Application>('argocd-app-synced-healthy.yaml');
  const outOfSync = loadFixture<Application>('argocd-app-outofsync-minimal.yaml');
  const degraded = loadFixture<Application>('argocd-app-degraded-minimal.yaml');

  it('syncedRevision reads status.sync.revision', () => {
    expect(syncedRevision(healthy)).toBe('rev1');
    expect(syncedRevisions(healthy)).toEqual(['rev1']);
    expect(syncedRevision(outOfSync)).toBeUndefined();
    expect(syncedRevisions(degraded)).toEqual([]);
  });

  it('runningImages reads status.summary.images', () => {
    expect(runningImages(healthy)).toEqual(['nginx:latest']);
    expect(runningImages(outOfSync)).toEqual([]);
    expect(runningImages(undefined)).toEqual([]);
  });

  it('findRollout finds nothing: the fixture has a Service and a Deployment only', () => {
    expect(findRollout(healthy, 'test-lla')).toBeUndefined();
  });

  it('isReconciledAfterLastOperation: reconciledAt equals finishedAt', () => {
    expect(isReconciledAfterLastOperation(healthy)).toBe(true);
    expect(
      isReconciledAfterLastOperation(
        loadFixture<Application>('argocd-app-synced-healthy.yaml', 'yaml-1.1'),
      ),
    ).toBe(true);
  });

  it('isReconciledAfterLastOperation: true without an operation', () => {
    expect(isReconciledAfterLastOperation(outOfSync)).toBe(true);
    expect(isReconciledAfterLastOperation(degraded)).toBe(true);
  });
});

describe('Application helpers (synthetic Applications)', () => {
  it('synthetic multi-source: the first of status.sync.revisions', () => {
    const app = synthetic(a => {
      delete a.status.sync.revision;
      a.status.sync.revisions = [SHA_A, SHA_B];
    });
    expect(syncedRevision(app)).toBe(SHA_A);
    expect(syncedRevisions(app)).toEqual([SHA_A, SHA_B]);
  });

  it('synthetic: stale reconciledAt (before the sync finished)', () => {
    const app = synthetic(a => {
      a.status.reconciledAt = '2024-03-05T07:30:00Z';
    });
    expect(isReconciledAfterLastOperation(app)).toBe(false);
  });

  it('synthetic: no reconciledAt after a finished sync', () => {
    expect(
      isReconciledAfterLastOperation(
        synthetic(a => delete a.status.reconciledAt),
      ),
    ).toBe(false);
  });

  it('synthetic: reconciledAt as a Date object', () => {
    const app = synthetic(a => {
      a.status.reconciledAt = new Date('2024-03-05T07:40:00Z');
      a.status.operationState.finishedAt = new Date('2024-03-05T07:33:04Z');
    });
    expect(isReconciledAfterLastOperation(app)).toBe(true);
  });

  it('synthetic: findRollout by kind Rollout and name = service', () => {
    const entry = {
      group: 'argoproj.io',
      version: 'v1alpha1',
      kind: 'Rollout',
      namespace: 'test-lla',
      name: 'storefront',
      status: 'Synced',
      health: { status: 'Healthy' },
    };
    const app = synthetic(a => a.status.resources.push(entry));
    expect(findRollout(app, 'storefront')).toEqual(entry);
    expect(findRollout(app, 'cart')).toBeUndefined();
    // A Deployment with the service's name is not its Rollout.
    expect(findRollout(app, 'test-lla')).toBeUndefined();
  });
});

describe('imageDigest', () => {
  it.each<[string, string | undefined]>([
    [`registry.example.com/alpha/shop/storefront@${D1}`, D1],
    [`registry.example.com:5000/alpha/storefront:1.2.3@${D1}`, D1],
    [`storefront@${D1.toUpperCase().replace('SHA256', 'sha256')}`, D1],
    ['nginx:latest', undefined],
    ['registry.example.com:5000/alpha/storefront', undefined],
    ['storefront@sha256:abc', undefined],
  ])('%s → %p', (image, expected) => {
    expect(imageDigest(image)).toBe(expected);
  });
});

describe('imageRepository', () => {
  it.each([
    [
      `reg.example.com:5000/alpha/storefront:1.2@${D1}`,
      'reg.example.com:5000/alpha/storefront',
    ],
    ['nginx:latest', 'nginx'],
    [`ghcr.io/alpha/cart@${D1}`, 'ghcr.io/alpha/cart'],
  ])('%s → %s', (image, expected) => {
    expect(imageRepository(image)).toBe(expected);
  });
});
