import { modifiedFixture } from '../__testUtils__/fixtures';
import { findRollout } from './application';
import { healthIsInResourceTree, withResourceTreeHealth } from './resourceTree';
import type { Application, ResourceNode } from './types';

/** The real Synced+Healthy Application as Argo CD 3 serves it: no health in status.resources. */
function argoCd3App(): Application {
  return modifiedFixture('argocd-app-synced-healthy.yaml', a => {
    a.status.resourceHealthSource = 'appTree';
    a.status.resources.push({
      group: 'argoproj.io',
      version: 'v1alpha1',
      kind: 'Rollout',
      namespace: 'test-lla',
      name: 'storefront',
      status: 'Synced',
    });
    for (const resource of a.status.resources) delete resource.health;
  });
}

const rolloutNode = (health?: ResourceNode['health']): ResourceNode => ({
  group: 'argoproj.io',
  version: 'v1alpha1',
  kind: 'Rollout',
  namespace: 'test-lla',
  name: 'storefront',
  uid: 'c0ffee',
  ...(health ? { health } : {}),
});

describe('withResourceTreeHealth: Argo CD 3 resource health back where the rule reads it', () => {
  it('healthIsInResourceTree reads status.resourceHealthSource', () => {
    expect(healthIsInResourceTree(argoCd3App())).toBe(true);
    expect(healthIsInResourceTree(modifiedFixture('argocd-app-synced-healthy.yaml', () => {}))).toBe(false);
    expect(healthIsInResourceTree(undefined)).toBe(false);
  });

  it.each<[string, ResourceNode[], string | undefined, string | undefined]>([
    ['Healthy node', [rolloutNode({ status: 'Healthy' })], 'Healthy', undefined],
    ['Suspended node with a message', [rolloutNode({ status: 'Suspended', message: 'CanaryPauseStep' })], 'Suspended', 'CanaryPauseStep'],
    ['Degraded node', [rolloutNode({ status: 'Degraded', message: 'Rollout is aborted' })], 'Degraded', 'Rollout is aborted'],
    ['no node: not in the cluster', [], 'Missing', undefined],
    ['a node of another namespace is another resource', [{ ...rolloutNode({ status: 'Healthy' }), namespace: 'other' }], 'Missing', undefined],
    ['a node without health leaves the entry without health', [rolloutNode()], undefined, undefined],
  ])('%s', (_case, nodes, status, message) => {
    const app = argoCd3App();
    const overlaid = withResourceTreeHealth(app, nodes);
    expect(findRollout(overlaid, 'storefront')?.health?.status).toBe(status);
    expect(findRollout(overlaid, 'storefront')?.health?.message).toBe(message);
    // the input is left alone
    expect(findRollout(app, 'storefront')?.health).toBeUndefined();
  });

  it('every managed resource gets its own node’s health (core group matched as "")', () => {
    const app = argoCd3App();
    const overlaid = withResourceTreeHealth(app, [
      { version: 'v1', kind: 'Service', namespace: 'test-lla', name: 'test-lla', health: { status: 'Healthy' } },
      { group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'test-lla', name: 'test-lla', health: { status: 'Progressing' } },
      rolloutNode({ status: 'Healthy' }),
    ]);
    expect(overlaid.status!.resources!.map(r => [r.kind, r.health?.status])).toEqual([
      ['Service', 'Healthy'],
      ['Deployment', 'Progressing'],
      ['Rollout', 'Healthy'],
    ]);
  });

  it('with kinds given, only entries of those kinds are judged by the nodes', () => {
    const overlaid = withResourceTreeHealth(argoCd3App(), [rolloutNode({ status: 'Healthy' })], ['Rollout']);
    expect(overlaid.status!.resources!.map(r => [r.kind, r.health?.status])).toEqual([
      ['Service', undefined],
      ['Deployment', undefined],
      ['Rollout', 'Healthy'],
    ]);
  });

  it('an Application without status.resources is returned as it is', () => {
    const app: Application = { metadata: { name: 'x' }, status: { resourceHealthSource: 'appTree' } };
    expect(withResourceTreeHealth(app, [rolloutNode({ status: 'Healthy' })])).toBe(app);
  });
});
