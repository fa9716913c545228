import { COSIGN_SIGN_V1, ProvenanceFacts, SLSA_PROVENANCE_V1 } from '@refplat/plugin-promotions-common';
import { InMemoryProvenanceStore, ManualClock } from '@refplat/plugin-promotions-node/testUtils';
import { ProvenanceService } from './ProvenanceService';
import { ActiveProvenanceConfig } from './provenanceConfig';
import { installMetricsReader } from '../telemetry/__testUtils__/metricsReader';

const ISSUER = 'https://token.actions.githubusercontent.com';
const CONFIG: ActiveProvenanceConfig = {
  mode: 'enforce',
  stages: ['dev', 'test', 'uat', 'staging', 'prod'],
  registry: { url: 'https://registry.refplat.org', concurrency: 4, timeoutMs: 10_000, allowedHosts: [] },
  trustedRoot: { file: '/trusted_root.json' },
  signer: { issuer: ISSUER, identity: 'https://github.com/refplat/{product}/.github/workflows/build-sign.yml@refs/heads/main' },
  builder: { issuer: ISSUER, identity: 'https://github.com/refplat/{product}/.github/workflows/provenance.yml@refs/heads/main' },
  builderIds: ['https://github.com/refplat/{product}/.github/workflows/provenance.yml@refs/heads/main'],
  sourceRepository: 'https://github.com/refplat/{product}',
  recheckMs: 60_000,
  revalidateMs: 24 * 60 * 60_000,
  overridable: false,
};
const STOREFRONT = { team: 'alpha', product: 'shop', service: 'storefront' };
const DIGEST = `sha256:${'a'.repeat(64)}`;

/** A registry whose answers the test sets, counting the looks. */
class FakeFacts {
  looks: Array<{ subject: string; repository: string; digest: string }> = [];
  signed = true;
  attested = true;
  async facts(subject: string, repository: string, digest: string): Promise<ProvenanceFacts> {
    this.looks.push({ subject, repository, digest });
    const bundles = [];
    if (this.signed) {
      bundles.push({
        verified: true as const,
        signer: { issuer: ISSUER, identity: 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main' },
        statement: { predicateType: COSIGN_SIGN_V1, subjectDigests: [digest] },
      });
    }
    if (this.attested) {
      bundles.push({
        verified: true as const,
        signer: { issuer: ISSUER, identity: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main' },
        statement: {
          predicateType: SLSA_PROVENANCE_V1,
          subjectDigests: [digest],
          builderId: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main',
          sourceRepo: 'https://github.com/refplat/shop',
          sourceCommit: 'c0ffee',
        },
      });
    }
    return { subject, digest, manifest: { state: 'present' }, bundles };
  }
}

function setUp(trustedRootId = 'root-1', store = new InMemoryProvenanceStore()) {
  const facts = new FakeFacts();
  const clock = new ManualClock();
  const service = new ProvenanceService({ config: CONFIG, images: {}, facts, store, clock, trustedRootId: async () => trustedRootId });
  return { facts, clock, service, store };
}

describe('ProvenanceService', () => {
  it('looks a digest up under the Service\'s repository and filled-in identities, once: verified stays verified', async () => {
    const { facts, service } = setUp();
    const first = await service.provenanceOf(STOREFRONT, DIGEST);
    expect(first).toMatchObject({ state: 'verified', sourceCommit: 'c0ffee', sourceRepo: 'https://github.com/refplat/shop' });
    expect(facts.looks).toEqual([{ subject: 'storefront sha256:aaaaaaaaaaaa', repository: 'team-alpha/shop-storefront', digest: DIGEST }]);
    expect(await service.provenanceOf(STOREFRONT, DIGEST)).toEqual(first);
    expect(facts.looks).toHaveLength(1);
  });

  it('answers a verified digest from memory after its first read: a warm view reads the store no more', async () => {
    const first = setUp();
    await first.service.provenanceOf(STOREFRONT, DIGEST);
    const second = setUp('root-1', first.store);
    const get = jest.spyOn(first.store, 'get');
    await second.service.provenanceOf(STOREFRONT, DIGEST);
    await second.service.provenanceOf(STOREFRONT, DIGEST);
    await second.service.provenanceOf(STOREFRONT, DIGEST);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('counts each verdict the registry gave, not the answers from memory or the store', async () => {
    const reader = installMetricsReader();
    try {
      const { facts, service } = setUp();
      facts.attested = false;
      await service.provenanceOf(STOREFRONT, DIGEST);
      facts.attested = true;
      await service.provenanceOf(STOREFRONT, DIGEST, { fresh: true });
      await service.provenanceOf(STOREFRONT, DIGEST);

      const recorded = await reader.collect();
      expect(recorded['promotions.provenance.verdicts']).toEqual([
        { attributes: { 'provenance.verdict': 'unverified' }, value: 1 },
        { attributes: { 'provenance.verdict': 'verified' }, value: 1 },
      ]);
    } finally {
      await reader.uninstall();
    }
  });

  it('shares the store between replicas: a second replica asks the registry nothing', async () => {
    const first = setUp();
    await first.service.provenanceOf(STOREFRONT, DIGEST);
    const second = setUp('root-1', first.store);
    expect((await second.service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('verified');
    expect(second.facts.looks).toHaveLength(0);
  });

  it('asks again under another trusted root', async () => {
    const first = setUp();
    await first.service.provenanceOf(STOREFRONT, DIGEST);
    const other = setUp('root-2', first.store);
    await other.service.provenanceOf(STOREFRONT, DIGEST);
    expect(other.facts.looks).toHaveLength(1);
  });

  it('keeps what is not verified for the recheck time only: a signature CI pushed meanwhile counts after it', async () => {
    const { facts, clock, service } = setUp();
    facts.signed = false;
    expect((await service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('unverified');
    facts.signed = true;
    clock.advance({ seconds: 59 });
    expect((await service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('unverified');
    expect(facts.looks).toHaveLength(1);
    clock.advance({ seconds: 1 });
    expect((await service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('verified');
    expect(facts.looks).toHaveLength(2);
  });

  it('answers unknown with the reason when the registry or the trusted root fails, and asks again after the recheck time', async () => {
    const { facts, clock, service } = setUp();
    const failing = jest.spyOn(facts, 'facts').mockRejectedValueOnce(new Error('the trusted root at http://sim/root answered HTTP 503'));
    expect(await service.provenanceOf(STOREFRONT, DIGEST)).toEqual({
      state: 'unknown',
      reasons: ['storefront sha256:aaaaaaaaaaaa: the trusted root at http://sim/root answered HTTP 503'],
    });
    clock.advance({ minutes: 1 });
    expect((await service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('verified');
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it('makes one look for concurrent asks about one digest', async () => {
    const { facts, service } = setUp();
    const answers = await Promise.all(Array.from({ length: 10 }, () => service.provenanceOf(STOREFRONT, DIGEST)));
    expect(new Set(answers.map(answer => answer.state))).toEqual(new Set(['verified']));
    expect(facts.looks).toHaveLength(1);
  });

  it('reads the registry again when asked afresh (the Gate before a merge), and forgets a verdict it no longer confirms, for every replica', async () => {
    const first = setUp();
    expect((await first.service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('verified');
    // The signature is deleted from the registry (and one from another identity put there instead).
    first.facts.signed = false;
    expect((await first.service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('verified');
    expect(first.facts.looks).toHaveLength(1);

    const again = await first.service.provenanceOf(STOREFRONT, DIGEST, { fresh: true });
    expect(again.state).toBe('unverified');
    expect(first.facts.looks).toHaveLength(2);
    // Views see it too: not from memory, not from the store.
    expect((await first.service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('unverified');
    // A replica finds nothing kept: it asks the registry.
    const replica = setUp('root-1', first.store);
    replica.facts.signed = false;
    expect((await replica.service.provenanceOf(STOREFRONT, DIGEST)).state).toBe('unverified');
    expect(replica.facts.looks).toHaveLength(1);
  });

  describe('for a view, which never waits on the registry', () => {
    it('answers checking while the registry is slow, tells once when the look ended, then answers the verdict', async () => {
      const settled: string[] = [];
      const facts = new FakeFacts();
      let answer = () => {};
      const slow = new Promise<void>(resolve => {
        answer = resolve;
      });
      const look = facts.facts.bind(facts);
      facts.facts = async (...args) => {
        await slow;
        return look(...args);
      };
      const service = new ProvenanceService({
        config: CONFIG,
        images: {},
        facts,
        store: new InMemoryProvenanceStore(),
        clock: new ManualClock(),
        trustedRootId: async () => 'root-1',
        onSettled: ref => settled.push(`${ref.product}/${ref.service}`),
      });

      const views = await Promise.all([service.provenanceForView(STOREFRONT, DIGEST, 10), service.provenanceForView(STOREFRONT, DIGEST, 10)]);
      expect(views.map(view => view.state)).toEqual(['checking', 'checking']);
      expect(views[0].reasons).toEqual(['storefront sha256:aaaaaaaaaaaa: being checked against the registry; the ladder updates when it is done']);
      expect(settled).toEqual([]);

      answer();
      await new Promise(resolve => setImmediate(resolve));
      await new Promise(resolve => setImmediate(resolve));
      expect(settled).toEqual(['shop/storefront']);
      expect((await service.provenanceForView(STOREFRONT, DIGEST, 10)).state).toBe('verified');
      expect(facts.looks).toHaveLength(1);
    });

    it('reads a verified result again behind the view once it is a revalidation age old, and fails it when the signature is gone', async () => {
      const settled: string[] = [];
      const facts = new FakeFacts();
      const clock = new ManualClock();
      const service = new ProvenanceService({
        config: CONFIG,
        images: {},
        facts,
        store: new InMemoryProvenanceStore(),
        clock,
        trustedRootId: async () => 'root-1',
        onSettled: ref => settled.push(ref.service),
      });
      expect((await service.provenanceForView(STOREFRONT, DIGEST)).state).toBe('verified');
      facts.signed = false;
      clock.advance({ hours: 23 });
      expect((await service.provenanceForView(STOREFRONT, DIGEST)).state).toBe('verified');
      expect(facts.looks).toHaveLength(1);

      clock.advance({ hours: 2 });
      // Shown as kept while the registry is read again behind it.
      expect((await service.provenanceForView(STOREFRONT, DIGEST)).state).toBe('verified');
      await new Promise(resolve => setImmediate(resolve));
      await new Promise(resolve => setImmediate(resolve));
      expect(facts.looks).toHaveLength(2);
      expect(settled).toEqual(['storefront']);
      expect((await service.provenanceForView(STOREFRONT, DIGEST)).state).toBe('unverified');
    });

    it('answers the verdict itself when the registry answers within the wait', async () => {
      const { service } = setUp();
      expect((await service.provenanceForView(STOREFRONT, DIGEST)).state).toBe('verified');
    });
  });
});