import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import { DatabasePromotionStore } from './DatabasePromotionStore';
import { DatabaseProvenanceStore } from './ProvenanceStore';

jest.setTimeout(60_000);

const databases = TestDatabases.create({ ids: ['POSTGRES_15', 'SQLITE_3'] });
const DIGEST = `sha256:${'a'.repeat(64)}`;
const verified = (commit: string) => ({
  state: 'verified' as const,
  sourceRepo: 'https://github.com/refplat/shop',
  sourceCommit: commit,
  signer: 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main',
  builder: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main',
  reasons: [],
});

describe.each(databases.eachSupportedId())('DatabaseProvenanceStore on %s', (databaseId: TestDatabaseId) => {
  it('keeps a result by digest and policy for every replica; the newest stands, and a forgotten one is gone for all', async () => {
    const knex = await databases.init(databaseId);
    await DatabasePromotionStore.create({ getClient: async () => knex, migrations: { skip: false } });
    const [a, b] = [new DatabaseProvenanceStore(knex), new DatabaseProvenanceStore(knex)];

    await Promise.all([a.put(DIGEST, 'p1', verified('c0ffee'), new Date()), b.put(DIGEST, 'p1', verified('c0ffee'), new Date())]);
    expect(await b.get(DIGEST, 'p1')).toEqual(verified('c0ffee'));
    // The Gate's look again before a merge replaces it.
    await b.put(DIGEST, 'p1', verified('other'), new Date());
    expect(await a.get(DIGEST, 'p1')).toEqual(verified('other'));
    expect(await a.get(DIGEST, 'p2')).toBeUndefined();
    expect(await a.get(`sha256:${'b'.repeat(64)}`, 'p1')).toBeUndefined();
    await b.forget(DIGEST, 'p1');
    expect(await a.get(DIGEST, 'p1')).toBeUndefined();
  });
});
