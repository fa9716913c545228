import http from 'http';
import { AddressInfo } from 'net';
import type { JsonObject } from '@backstage/types';
import crypto from 'crypto';
import { execFileSync } from 'child_process';
import { TestDatabases, mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { Ladder, Provenance, expectedSigner, shortDigest } from '@refplat/plugin-promotions-common';
import {
  BuildFlags,
  FOREIGN_BUILDER_ID,
  FOREIGN_SOURCE_REPO,
  RunningRegistry,
  RunningSim,
  dockerRegistryInstalled,
  startDockerRegistry,
} from '@refplat/platform-sim';
import { CountingProxy, ProxiedRequest, startCountingProxy } from '../__testUtils__/countingProxy';
import { getLadder } from '../__testUtils__/ladderViews';
import { TestProduct, backendPerTest, githubWrites, sharedSimBackend } from '../__testUtils__/sharedSimBackend';
import { FAST_SIM_TIMINGS, PromotionsBackendOptions, eventually, startPromotionsBackend } from '../__testUtils__/testBackend';

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

const SERVICE = 'storefront';

/**
 * `promotions.provenance` as the demo runs it: enforce from test on (dev takes
 * any build), the simulator's registry behind `registryUrl`, its Sigstore's
 * trusted root, the seeds' build-sign and provenance workflows. A result that
 * is not verified stands 10 minutes, so no view in a test asks again.
 */
function provenanceBackend(
  sim: RunningSim,
  registryUrl: string,
  more: PromotionsBackendOptions = {},
  /** More `promotions.provenance` keys, e.g. `overridable`. */
  provenance: JsonObject = {},
): PromotionsBackendOptions {
  return {
    // No Gate: nothing but a test's own requests writes to GitHub, so a refusal's "no write" is exact.
    gate: { enabled: false },
    ...more,
    promotions: {
      provenance: {
        mode: 'enforce',
        stages: ['test', 'uat', 'staging', 'prod'],
        registry: { url: registryUrl },
        trustedRoot: { url: sim.registry!.trustedRootUrl },
        // Copies: config is JSON, which an interface-typed value is not to TypeScript.
        signer: { ...sim.registry!.identities.signer },
        builder: { ...sim.registry!.identities.builder },
        recheck: { minutes: 10 },
        ...provenance,
      },
    },
  };
}

const subjectOf = (digest: string) => `${SERVICE} ${shortDigest(digest)}`;
const isReferrersApi = (call: ProxiedRequest) => call.path.includes('/referrers/');
const describeCall = (call: ProxiedRequest) => `${call.method} ${call.path.replace(/\?.*$/, '')} ${call.status}`;

/**
 * Provenance on the ladder against the simulator playing CI (issue 25): each
 * CI push publishes a real build into Debian's docker-registry, signed and
 * attested by the simulator's Sigstore or broken as its flag says; the
 * backend reads it through a proxy that counts the registry requests.
 */
export function provenanceSuite() {
  const describeWithRegistry = dockerRegistryInstalled() ? describe : describe.skip;
  if (!dockerRegistryInstalled()) {
    // eslint-disable-next-line no-console
    console.warn('provenance API tests skipped: Debian docker-registry is not installed (apt-get install -y docker-registry)');
  }

  describeWithRegistry('provenance on the ladder against the simulator and docker-registry', () => {
    const databases = TestDatabases.create({ ids: ['SQLITE_3'] });
    let registry: RunningRegistry;
    /** The shared backend's way to the registry; the simulator pushes to the registry directly, uncounted. */
    let proxy: CountingProxy;
    beforeAll(async () => {
      registry = await startDockerRegistry();
      proxy = await startCountingProxy(registry.url);
    });
    afterAll(async () => {
      await proxy?.stop();
      await registry?.stop();
    });
    const shared = sharedSimBackend({
      sim: () => ({ ...FAST_SIM_TIMINGS, registry: { url: registry.url } }),
      backend: sim => provenanceBackend(sim, proxy.url),
    });
    const startBackend = backendPerTest();

    /** CI's build of the Product's storefront, broken as the flags say: its digest, now in the dev Release. */
    const push = async (shop: TestProduct, flags: BuildFlags = {}) =>
      (await shared.sim.control.ciPush({ team: shop.team, product: shop.product, service: SERVICE, ...flags })).digest;
    /**
     * The dev storefront cell once dev runs `digest` and is healthy, so that a
     * request into test meets the provenance guard, not the source's health.
     */
    const devCell = (server: Server, shop: TestProduct, digest: string) =>
      eventually(async () => {
        const dev = (await getLadder(server, shop.ref)).stages.find(stage => stage.name === 'dev')!;
        const cell = dev.services[SERVICE];
        return dev.verdict === 'healthy' && cell.digest === digest && cell.runningDigests?.join() === digest ? cell : undefined;
      }, 60_000);
    const requestIntoTest = (server: Server, shop: TestProduct) =>
      request(server)
        .post(`/api/promotions/products/${shop.ref}/promotions`)
        .set('Authorization', mockCredentials.user.header('user:default/bob'))
        .send({ toStage: 'test', services: [SERVICE] });
    /** The app repo's main, which the simulator's CI builds from. */
    /** The source repository's main, which the simulator's CI commits to and builds. */
    const sourceMain = (shop: TestProduct) =>
      execFileSync('git', ['--git-dir', shared.sim.sourceRepoDir(shop.product), 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
    const identities = (shop: TestProduct) => {
      const ref = { team: shop.team, product: shop.product, service: SERVICE };
      return {
        signer: expectedSigner(shared.sim.registry!.identities.signer, ref),
        builder: expectedSigner(shared.sim.registry!.identities.builder, ref),
        wrongSigner: expectedSigner(shared.sim.registry!.identities.wrongSigner, ref),
      };
    };

    it('shows a signed and attested build verified, with its source repo and commit, signer and builder, and lets it into test', async () => {
      const { sim, server } = shared;
      const shop = await shared.addProduct('alpha/shop');
      const digest = await push(shop);

      const { signer, builder } = identities(shop);
      expect((await devCell(server, shop, digest)).provenance).toEqual<Provenance>({
        state: 'verified',
        sourceRepo: `${sim.url}/refplat/${shop.product}`,
        sourceCommit: sourceMain(shop),
        signer: signer.identity,
        builder: builder.identity,
        reasons: [],
      });

      const writes = githubWrites(sim).length;
      const accepted = await requestIntoTest(server, shop);
      expect(accepted.status).toBe(201);
      expect(accepted.body.promotion.services).toEqual({ [SERVICE]: digest });
      expect(accepted.body.promotion.pullRequest.number).toEqual(expect.any(Number));
      expect(accepted.body.guards).toEqual(
        expect.arrayContaining([{ guard: 'provenance', verdict: 'allow', reason: 'Every digest is signed and has SLSA provenance' }]),
      );
      expect(githubWrites(sim).length).toBeGreaterThan(writes);
    });

    it.each<{ flag: keyof BuildFlags; state: Provenance['state']; requests: number; reasonFor: (digest: string, shop: TestProduct) => string }>([
      { flag: 'unsigned', state: 'unverified', requests: 4, reasonFor: digest => `${subjectOf(digest)} is not signed (look at the build-sign workflow's sign step)` },
      {
        // Signed by the provenance workflow's identity, naming a builder nobody trusts (issue 44).
        flag: 'foreignBuilder',
        state: 'failed',
        requests: 6,
        reasonFor: (digest, shop) =>
          `${subjectOf(digest)}: its SLSA provenance names the builder ${FOREIGN_BUILDER_ID}, not ${identities(shop).builder.identity} (promotions.provenance.builder.ids)`,
      },
      {
        flag: 'foreignSource',
        state: 'failed',
        requests: 6,
        reasonFor: (digest, shop) =>
          `${subjectOf(digest)}: its SLSA provenance is of the source repository ${FOREIGN_SOURCE_REPO}, not ${shared.sim.url}/refplat/${shop.product} (promotions.provenance.source.repository)`,
      },
      {
        flag: 'wrongSigner',
        state: 'failed',
        requests: 6,
        reasonFor: (digest, shop) => {
          const { signer, wrongSigner } = identities(shop);
          return `${subjectOf(digest)}: its signature is by ${wrongSigner.identity} (issuer ${wrongSigner.issuer}), not ${signer.identity} (issuer ${signer.issuer})`;
        },
      },
      {
        flag: 'noProvenance',
        state: 'unverified',
        requests: 4,
        reasonFor: digest => `${subjectOf(digest)} has no SLSA provenance from the provenance workflow (look at the provenance workflow's run)`,
      },
      {
        flag: 'tampered',
        state: 'failed',
        requests: 6,
        reasonFor: digest => `${subjectOf(digest)}: its signature is for another digest (sha256:${crypto.createHash('sha256').update(`not ${digest}`).digest('hex')})`,
      },
      {
        flag: 'notPushed',
        state: 'failed',
        requests: 1,
        reasonFor: digest => `${subjectOf(digest)} never reached the registry: it has no manifest there (look at the CI run's push step)`,
      },
    ])(
      'shows a build pushed with $flag as $state with the reason, and refuses it into test with 409 naming the check, writing nothing to GitHub ($requests registry requests)',
      async ({ flag, state, requests, reasonFor }) => {
        const { sim, server } = shared;
        const shop = await shared.addProduct('alpha/shop');
        // A view first, so that the view after the push asks only about the new digest.
        await getLadder(server, shop.ref);
        const digest = await push(shop, { [flag]: true });
        const mark = proxy.requests.length;

        const cell = await devCell(server, shop, digest);
        const reason = reasonFor(digest, shop);
        expect(cell.provenance).toMatchObject({ state, reasons: [reason] });
        // Cold, for this digest (the referrers API is asked once per backend, and counted in the cost test).
        expect(proxy.since(mark).filter(call => !isReferrersApi(call)).map(describeCall)).toHaveLength(requests);

        const writes = githubWrites(sim).length;
        const asked = proxy.requests.length;
        const refused = await requestIntoTest(server, shop);
        expect(refused.status).toBe(409);
        expect(refused.body.error.message).toBe(`Promotion into test refused by policy: provenance: ${reason}`);
        expect(githubWrites(sim)).toHaveLength(writes);
        // What is not verified stands for the recheck time: the refusal asked the registry nothing.
        expect(proxy.since(asked)).toEqual([]);
      },
    );

    it('asks the registry 7 times for the first signed build, 6 for each next, 0 on a warm view, and 0 from a replica for what is verified', async () => {
      const { sim } = shared;
      const shop = await shared.addProduct('alpha/shop');
      const counted = await startCountingProxy(registry.url);
      const knex = await databases.init('SQLITE_3');
      try {
        const first = await startBackend(sim, 'argocd', provenanceBackend(sim, counted.url, { knex }));
        // The seeded digests were never pushed: 1 HEAD each. A view waits for the registry only so
        // long: on a loaded machine a check may answer after it, so wait for every digest's.
        const seeded = await getLadder(first, shop.ref);
        await eventually(async () => counted.requests.length >= distinctDigests(seeded) || undefined, 30_000);
        await counted.settled();
        // Named, so that a failure says which call was not a HEAD answered 404.
        expect(counted.requests.filter(call => call.method !== 'HEAD' || call.status !== 404).map(describeCall)).toEqual([]);
        expect(counted.requests).toHaveLength(distinctDigests(seeded));

        const one = await push(shop);
        let mark = counted.requests.length;
        expect((await devCell(first, shop, one)).provenance?.state).toBe('verified');
        const image = `/v2/team-${shop.team}/${shop.product}-${SERVICE}`;
        const cold = counted.since(mark).map(describeCall);
        // HEAD, the referrers API (Distribution 2.8 answers 404), the referrers tag, then each bundle's artifact manifest and blob.
        expect(cold.slice(0, 3)).toEqual([
          `HEAD ${image}/manifests/${one} 200`,
          `GET ${image}/referrers/${one} 404`,
          `GET ${image}/manifests/${one.replace(':', '-')} 200`,
        ]);
        expect(cold.slice(3).map(call => call.replace(/sha256:[0-9a-f]{64}/, '<digest>')).sort()).toEqual([
          `GET ${image}/blobs/<digest> 200`,
          `GET ${image}/blobs/<digest> 200`,
          `GET ${image}/manifests/<digest> 200`,
          `GET ${image}/manifests/<digest> 200`,
        ]);

        const two = await push(shop);
        mark = counted.requests.length;
        expect((await devCell(first, shop, two)).provenance?.state).toBe('verified');
        // Distribution 2.8 has no referrers API, and the backend remembers it: HEAD, referrers tag, 2 × (manifest, blob).
        expect(counted.since(mark)).toHaveLength(6);
        expect(counted.since(mark).filter(isReferrersApi)).toEqual([]);

        mark = counted.requests.length;
        const warm = await getLadder(first, shop.ref);
        expect(counted.since(mark)).toEqual([]);

        // A replica on the same database: the verified digest is read from there; only what is not verified is asked again, 1 HEAD each.
        const replica = await startBackend(sim, 'argocd', provenanceBackend(sim, counted.url, { knex }));
        mark = counted.requests.length;
        const fromReplica = await getLadder(replica, shop.ref);
        // The shop's images only: the first backend's Gate goes on checking the promotions other suites
        // left open on the shared simulator, and their provenance, through the same proxy.
        const ofShop = (calls: typeof counted.requests) => calls.filter(call => call.path.startsWith(`/v2/team-${shop.team}/${shop.product}-`));
        // As for the first backend's view: the replica's checks may be answered after its view.
        await eventually(async () => ofShop(counted.since(mark)).length >= distinctDigests(fromReplica) - 1 || undefined, 30_000);
        await counted.settled();
        expect(fromReplica.stages.find(stage => stage.name === 'dev')!.services[SERVICE].provenance).toEqual(
          warm.stages.find(stage => stage.name === 'dev')!.services[SERVICE].provenance,
        );
        const replicaAsked = ofShop(counted.since(mark));
        expect(replicaAsked.filter(call => call.path.includes(two.slice('sha256:'.length)))).toEqual([]);
        expect(replicaAsked.every(call => call.method === 'HEAD' && call.status === 404)).toBe(true);
        expect(replicaAsked).toHaveLength(distinctDigests(fromReplica) - 1);
        mark = counted.requests.length;
        await getLadder(replica, shop.ref);
        expect(ofShop(counted.since(mark))).toEqual([]);
      } finally {
        await counted.stop();
      }
    });

    it.each([
      ["refuses a release-approver's override of an unsigned build with 409, writing nothing", {}, 409],
      ['lets the override through where promotions.provenance.overridable is set (break-glass)', { overridable: true }, 201],
    ])('%s', async (_case, provenance, status) => {
      const { sim } = shared;
      const shop = await shared.addProduct('alpha/shop');
      const server = await startBackend(sim, 'argocd', provenanceBackend(sim, proxy.url, {}, provenance));
      const digest = await push(shop, { unsigned: true });
      await devCell(server, shop, digest);

      const writes = githubWrites(sim).length;
      const overriding = await request(server)
        .post(`/api/promotions/products/${shop.ref}/promotions`)
        .set('Authorization', mockCredentials.user.header('user:default/alice'))
        .send({ toStage: 'test', services: [SERVICE], override: { reason: 'Checkout outage hotfix' } });
      expect([overriding.status, overriding.body.error?.message]).toEqual([
        status,
        status === 409
          ? `Promotion into test refused by policy: provenance: ${subjectOf(digest)} is not signed (look at the build-sign workflow's sign step)`
          : undefined,
      ]);
      if (status === 409) expect(githubWrites(sim)).toHaveLength(writes);
    });

    it('answers views while the registry hangs: the cell says checking, no view waits for it', async () => {
      const { sim } = shared;
      const shop = await shared.addProduct('alpha/shop');
      // A registry that takes every connection and never answers (its requests time out after 30 s).
      const hanging = http.createServer(() => undefined);
      await new Promise<void>(resolve => hanging.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
        const server = await startBackend(sim, 'argocd', provenanceBackend(sim, url, {}, { registry: { url, timeout: { seconds: 30 } } }));
        const started = Date.now();
        const first = await getLadder(server, shop.ref);
        // A view waiting on the registry would take its 30 s timeout.
        expect(Date.now() - started).toBeLessThan(5_000);
        const dev = first.stages.find(stage => stage.name === 'dev')!;
        expect(dev.services[SERVICE].provenance).toMatchObject({ state: 'checking' });
        const took: number[] = [];
        for (let view = 0; view < 20; view += 1) {
          const viewStarted = Date.now();
          await getLadder(server, shop.ref);
          took.push(Date.now() - viewStarted);
        }
        took.sort((a, b) => a - b);
        const p95 = took[Math.ceil(0.95 * took.length) - 1];
        // eslint-disable-next-line no-console
        console.log(`ladder views while the registry hangs: p50 ${took[took.length >> 1]} ms, p95 ${p95} ms`);
        // Measured here: p95 39 ms; the bound leaves room for a loaded CI machine.
        expect(p95).toBeLessThan(500);
      } finally {
        hanging.closeAllConnections();
        hanging.close();
      }
    });

    it('shows a build unknown, with the reason, when the registry cannot be reached, and refuses it into test with 409, writing nothing', async () => {
      const { sim } = shared;
      const shop = await shared.addProduct('alpha/shop');
      // A port that was just listened on and is closed now: connections are refused.
      const gone = await startCountingProxy(registry.url);
      await gone.stop();
      const server = await startBackend(sim, 'argocd', provenanceBackend(sim, gone.url));
      const digest = await push(shop);

      const reason = `${subjectOf(digest)}: the registry could not be asked: HEAD ${gone.url}/v2/team-${shop.team}/${shop.product}-${SERVICE}/manifests/${digest}: ECONNREFUSED`;
      expect((await devCell(server, shop, digest)).provenance).toEqual({ state: 'unknown', reasons: [reason] });

      const writes = githubWrites(sim).length;
      const refused = await requestIntoTest(server, shop);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(`Promotion into test refused by policy: provenance: ${reason}`);
      expect(githubWrites(sim)).toHaveLength(writes);
    });
  });
}

/** The (Service, digest) pairs of a ladder: each is one look at the registry. */
function distinctDigests(ladder: Ladder): number {
  return new Set(
    ladder.stages.flatMap(stage =>
      Object.entries(stage.services).flatMap(([service, cell]) => (cell.digest ? [`${service} ${cell.digest}`] : [])),
    ),
  ).size;
}
