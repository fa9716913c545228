import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { FakeDirectory } from './FakeDirectory';

const SHOP = { team: 'alpha', product: 'shop' };
/** The fake answers from what the test set, whoever asks. */
const ALICE_CREDENTIALS = { $$type: '@backstage/BackstageCredentials', principal: { type: 'user', userEntityRef: 'user:default/alice' } } as BackstageCredentials;

describe('FakeDirectory', () => {
  it('answers owners, approval annotations, Group memberships and names as set', async () => {
    const directory = new FakeDirectory()
      .setProduct(SHOP, { owners: ['group:default/shop'], annotations: { 'refplat.org/approval-quorum': 'prod=2' } })
      .setUser('user:default/alice', { groups: ['group:default/release-approvers'], name: 'Alice A.' });
    expect(await directory.of(SHOP)).toEqual(['group:default/shop']);
    expect(await directory.of({ team: 'x', product: 'y' })).toEqual([]);
    expect(await directory.approvalAnnotations(SHOP)).toEqual({ 'refplat.org/approval-quorum': 'prod=2' });
    expect(await directory.approvalAnnotations({ team: 'x', product: 'y' })).toBeUndefined();
    const nameOf = await directory.namesOf(['user:default/alice', 'user:default/bob']);
    expect([nameOf('user:default/alice'), nameOf('user:default/bob')]).toEqual(['Alice A.', 'bob']);
    expect(await directory.candidate('user:default/alice', ALICE_CREDENTIALS)).toEqual({
      userEntityRef: 'user:default/alice',
      claims: ['user:default/alice', 'group:default/release-approvers'],
      name: 'Alice A.',
    });
  });
});
