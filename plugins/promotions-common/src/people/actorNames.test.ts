import { actorNameWithoutCatalog, approverRefs, entityDisplayName, isCatalogActor } from './actorNames';

describe('entityDisplayName', () => {
  it.each([
    ['a User with a profile display name', { metadata: { name: 'alice', title: 'A.' }, spec: { profile: { displayName: 'Alice Approver' } } }, 'Alice Approver'],
    ['a titled Group', { metadata: { name: 'release-approvers', title: 'Release approvers' }, spec: {} }, 'Release approvers'],
    ['an untitled Group', { metadata: { name: 'release-approvers' }, spec: { type: 'team' } }, 'release-approvers'],
    ['a blank display name', { metadata: { name: 'bob' }, spec: { profile: { displayName: '  ' } } }, 'bob'],
    ['no spec', { metadata: { name: 'carol' } }, 'carol'],
  ])('%s: %p', (_name, entity, expected) => {
    expect(entityDisplayName(entity)).toBe(expected);
  });
});

describe('actorNameWithoutCatalog', () => {
  it.each([
    ['user:default/alice', 'alice'],
    ['group:default/release-approvers', 'release-approvers'],
    ['user:other/alice', 'alice'],
    ['plugin:promotions/auto-promoter', 'Auto-promoter'],
    ['promotions-gate', 'Gate'],
    ['promotions-reconciler', 'Reconciler'],
    ['octocat', 'octocat'],
  ])('%s: %s', (actor, expected) => {
    expect(actorNameWithoutCatalog(actor)).toBe(expected);
  });
});

describe('isCatalogActor', () => {
  it.each([
    ['user:default/alice', true],
    ['Group:default/release-approvers', true],
    ['plugin:promotions/auto-promoter', false],
    ['promotions-gate', false],
    ['octocat', false],
  ])('%s: %p', (actor, expected) => {
    expect(isCatalogActor(actor)).toBe(expected);
  });
});

describe('approverRefs', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['user:default/alice', ['user:default/alice']],
    ['user:default/alice, user:default/carol', ['user:default/alice', 'user:default/carol']],
  ])('%p: %p', (approvedBy, expected) => {
    expect(approverRefs(approvedBy)).toEqual(expected);
  });
});
