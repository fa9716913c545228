import { CacheManager } from '@backstage/backend-defaults/cache';
import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { ConfigReader } from '@backstage/config';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { CatalogActorNames } from './ActorNames';

const alice: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'User',
  metadata: { name: 'alice', namespace: 'default' },
  spec: { profile: { displayName: 'Alice Approver' } },
};
const releaseApprovers: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Group',
  metadata: { name: 'release-approvers', namespace: 'default' },
  spec: { type: 'team', children: [] },
};

const names = (catalog: ReturnType<typeof catalogServiceMock>) =>
  new CatalogActorNames({
    catalog,
    auth: mockServices.auth(),
    cache: CacheManager.fromConfig(new ConfigReader({})).forPlugin('promotions'),
    logger: mockServices.logger.mock(),
  });

describe('CatalogActorNames', () => {
  it('names people and groups as the catalog presents them, never by their ref', async () => {
    const nameOf = await names(catalogServiceMock({ entities: [alice, releaseApprovers] })).namesOf([
      'user:default/alice',
      'group:default/release-approvers',
      'user:default/nobody',
      'plugin:promotions/auto-promoter',
      undefined,
    ]);
    expect(nameOf('user:default/alice')).toBe('Alice Approver');
    expect(nameOf('group:default/release-approvers')).toBe('release-approvers');
    expect(nameOf('user:default/nobody')).toBe('nobody');
    expect(nameOf('plugin:promotions/auto-promoter')).toBe('Auto-promoter');
    // Not asked for: its entity name, not its ref.
    expect(nameOf('user:default/bob')).toBe('bob');
  });

  it('asks the catalog once for the names it keeps in the cache', async () => {
    const catalog = catalogServiceMock({ entities: [alice] });
    const lookUps = jest.spyOn(catalog, 'getEntitiesByRefs');
    const directory = names(catalog);
    await directory.namesOf(['user:default/alice']);
    const again = await directory.namesOf(['user:default/alice']);
    expect(again('user:default/alice')).toBe('Alice Approver');
    expect(lookUps).toHaveBeenCalledTimes(1);
  });

  it('falls back to entity names when the catalog cannot answer, and asks again next time', async () => {
    const catalog = catalogServiceMock({ entities: [alice] });
    const lookUps = jest.spyOn(catalog, 'getEntitiesByRefs').mockRejectedValueOnce(new Error('catalog down'));
    const directory = names(catalog);
    expect((await directory.namesOf(['user:default/alice']))('user:default/alice')).toBe('alice');
    expect((await directory.namesOf(['user:default/alice']))('user:default/alice')).toBe('Alice Approver');
    expect(lookUps).toHaveBeenCalledTimes(2);
  });
});
