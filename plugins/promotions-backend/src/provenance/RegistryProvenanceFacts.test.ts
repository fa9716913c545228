import http from 'http';
import crypto from 'crypto';
import { AddressInfo } from 'net';
import {
  COSIGN_SIGN_V1,
  ProvenanceExpectations,
  SLSA_PROVENANCE_V1,
  expectedSigner,
  provenanceVerdict,
} from '@refplat/plugin-promotions-common';
import {
  BuildFlags,
  DEFAULT_BUILD_IDENTITIES,
  RunningRegistry,
  SigstoreAuthority,
  attachArtifact,
  cosignSignStatement,
  dockerRegistryInstalled,
  imageRepository,
  publishBuild,
  pushImage,
  slsaProvenanceStatement,
  startDockerRegistry,
  startSigstoreAuthority,
} from '@refplat/platform-sim';
import { OciRegistry } from './OciRegistry';
import { RegistryProvenanceFacts } from './RegistryProvenanceFacts';
import { SIGSTORE_BUNDLE_V03, SigstoreBundleVerifier } from './SigstoreBundleVerifier';

const STOREFRONT = { team: 'alpha', product: 'shop', service: 'storefront' };
const NAME = imageRepository(STOREFRONT.team, STOREFRONT.product, STOREFRONT.service);
/** The policy a platform configures: the seeds' build-sign and provenance workflows, filled in for the storefront. */
const EXPECTED: ProvenanceExpectations = {
  signer: expectedSigner(DEFAULT_BUILD_IDENTITIES.signer, STOREFRONT),
  builder: expectedSigner(DEFAULT_BUILD_IDENTITIES.builder, STOREFRONT),
};
const SOURCE_REPO = 'https://github.com/refplat/shop';
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
const sha256 = (content: Buffer | string) => `sha256:${crypto.createHash('sha256').update(content).digest('hex')}`;
const subjectOf = (digest: string) => `storefront ${digest.slice(0, 19)}…`;
/** A commit per build: it makes the image's content, so each test has its own digest. */
const commitFor = (build: string) => crypto.createHash('sha1').update(build).digest('hex');
const signatureOf = (digest: string) => cosignSignStatement(`registry.refplat.org/${NAME}`, digest);
const provenanceOf = (digest: string, sourceCommit = commitFor('table')) =>
  slsaProvenanceStatement({
    image: `registry.refplat.org/${NAME}`,
    digest,
    sourceRepo: SOURCE_REPO,
    sourceCommit,
    workflowPath: '.github/workflows/build-sign.yml',
    builderId: EXPECTED.builder.identity,
  });

/** Counts the registry requests `facts()` makes: OciRegistry speaks through the global fetch. */
async function counted<T>(work: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const spy = jest.spyOn(globalThis, 'fetch');
  try {
    const result = await work();
    return { result, requests: spy.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url).replace(/^http:\/\/[^/]+/, '')}`) };
  } finally {
    spy.mockRestore();
  }
}

let authority: SigstoreAuthority;
let verifier: SigstoreBundleVerifier;
beforeAll(async () => {
  authority = await startSigstoreAuthority();
  verifier = new SigstoreBundleVerifier(authority.trustedRoot);
}, 60_000);
afterAll(() => authority?.stop());

const describeWithRegistry = dockerRegistryInstalled() ? describe : describe.skip;
if (!dockerRegistryInstalled()) {
  // eslint-disable-next-line no-console
  console.warn('docker-registry is not installed (apt-get install -y docker-registry): the real-registry cases are skipped');
}

describeWithRegistry('RegistryProvenanceFacts against Distribution (docker-registry) and a local Sigstore', () => {
  let registry: RunningRegistry;
  let other: SigstoreAuthority;
  beforeAll(async () => {
    [registry, other] = await Promise.all([startDockerRegistry(), startSigstoreAuthority()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([registry?.stop(), other?.stop()]);
  });

  /** CI's build of the storefront at a commit, broken as the flags say (the simulator's publishBuild); answers its digest. */
  const publish = (build: string, flags: BuildFlags = {}) =>
    publishBuild({ registryUrl: registry.url, authority, ...STOREFRONT, sourceCommit: commitFor(build), flags });

  const factsOf = (digest: string) =>
    counted(() => new RegistryProvenanceFacts(new OciRegistry({ baseUrl: registry.url }), verifier).facts(subjectOf(digest), NAME, digest));

  it('verified: signed by build-sign, attested by the provenance workflow; 7 registry requests cold, 6 once the registry is known to have no referrers API', async () => {
    const digest = await publish('verified');
    const oci = new OciRegistry({ baseUrl: registry.url });
    const factsOn = (looked: string) => counted(() => new RegistryProvenanceFacts(oci, verifier).facts(subjectOf(looked), NAME, looked));

    const { result: facts, requests } = await factsOn(digest);

    expect(facts.manifest).toEqual({ state: 'present' });
    expect(facts.bundles).toHaveLength(2);
    expect(facts.bundles.every(bundle => bundle.verified)).toBe(true);
    expect(provenanceVerdict(facts, EXPECTED)).toEqual({
      state: 'verified',
      sourceRepo: SOURCE_REPO,
      sourceCommit: commitFor('verified'),
      signer: EXPECTED.signer.identity,
      builder: EXPECTED.builder.identity,
      reasons: [],
    });
    // HEAD, the referrers API (404 on Distribution 2.8), the referrers tag, then each bundle's manifest and blob; no cosign tags.
    const tag = digest.replace(':', '-');
    expect(requests.slice(0, 3)).toEqual([
      `HEAD /v2/${NAME}/manifests/${digest}`,
      `GET /v2/${NAME}/referrers/${digest}?artifactType=${encodeURIComponent(SIGSTORE_BUNDLE_V03)}`,
      `GET /v2/${NAME}/manifests/${tag}`,
    ]);
    expect(requests).toHaveLength(7);
    expect(requests.slice(3).filter(request => request.includes('/blobs/'))).toHaveLength(2);

    const next = await publish('verified again');
    const again = await factsOn(next);
    expect(provenanceVerdict(again.result, EXPECTED).state).toBe('verified');
    expect(again.requests.slice(0, 2)).toEqual([`HEAD /v2/${NAME}/manifests/${next}`, `GET /v2/${NAME}/manifests/${next.replace(':', '-')}`]);
    expect(again.requests).toHaveLength(6);
  });

  it("unverified: unsigned, after 5 requests: HEAD, the referrers API (404), the referrers tag, the provenance's manifest and blob; no cosign tags", async () => {
    const digest = await publish('unsigned', { unsigned: true });
    const { result, requests } = await factsOf(digest);
    expect(requests).toHaveLength(5);
    const verdict = provenanceVerdict(result, EXPECTED);
    expect(verdict).toMatchObject({ state: 'unverified', sourceCommit: commitFor('unsigned') });
    expect(verdict.reasons).toEqual([`${subjectOf(digest)} is not signed (look at the build-sign workflow's sign step)`]);
  });

  it('unverified: no provenance', async () => {
    const digest = await publish('no-provenance', { noProvenance: true });
    const verdict = provenanceVerdict((await factsOf(digest)).result, EXPECTED);
    expect(verdict).toMatchObject({ state: 'unverified', signer: EXPECTED.signer.identity });
    expect(verdict.reasons).toEqual([
      `${subjectOf(digest)} has no SLSA provenance from the provenance workflow (look at the provenance workflow's run)`,
    ]);
  });

  it('failed: a wrong signer verifies, and the verdict names who signed', async () => {
    const digest = await publish('wrong-signer', { wrongSigner: true });
    const { result: facts } = await factsOf(digest);
    expect(facts.bundles.every(bundle => bundle.verified)).toBe(true);
    const verdict = provenanceVerdict(facts, EXPECTED);
    const wrong = expectedSigner(DEFAULT_BUILD_IDENTITIES.wrongSigner, STOREFRONT);
    expect(verdict.state).toBe('failed');
    expect(verdict.reasons).toEqual([
      `${subjectOf(digest)}: its signature is by ${wrong.identity} (issuer ${wrong.issuer}), not ${EXPECTED.signer.identity} (issuer ${EXPECTED.signer.issuer})`,
    ]);
  });

  it('failed: tampered (the signature of another digest)', async () => {
    const digest = await publish('tampered', { tampered: true });
    const verdict = provenanceVerdict((await factsOf(digest)).result, EXPECTED);
    expect(verdict.state).toBe('failed');
    expect(verdict.reasons).toEqual([`${subjectOf(digest)}: its signature is for another digest (${sha256(`not ${digest}`)})`]);
  });

  it('failed: not pushed, after 1 request', async () => {
    const digest = await publish('not-pushed', { notPushed: true });
    const { result: facts, requests } = await factsOf(digest);
    expect(facts).toEqual({ subject: subjectOf(digest), digest, manifest: { state: 'absent' }, bundles: [] });
    expect(requests).toEqual([`HEAD /v2/${NAME}/manifests/${digest}`]);
    expect(provenanceVerdict(facts, EXPECTED)).toEqual({
      state: 'failed',
      reasons: [`${subjectOf(digest)} never reached the registry: it has no manifest there (look at the CI run's push step)`],
    });
  });

  it('failed: provenance signed by another Sigstore, a signature without a log entry, and a bundle that is not JSON', async () => {
    const image = await pushImage(registry.url, NAME, 'bad-bundles');
    const attach = (content: Buffer) => attachArtifact(registry.url, NAME, image, SIGSTORE_BUNDLE_V03, content);
    await attach(bytes(await other.signStatement(provenanceOf(image.digest), EXPECTED.builder)));
    const unlogged = (await authority.signStatement(signatureOf(image.digest), EXPECTED.signer)) as any;
    await attach(bytes({ ...unlogged, verificationMaterial: { ...unlogged.verificationMaterial, tlogEntries: [] } }));
    await attach(Buffer.from('{"mediaType":'));

    const { result: facts } = await factsOf(image.digest);

    expect(facts.bundles).toEqual([
      { verified: false, predicateType: SLSA_PROVENANCE_V1, problem: expect.stringMatching(/^the certificate is not from the trusted root/) },
      { verified: false, predicateType: COSIGN_SIGN_V1, problem: 'no transparency-log entry (nor a trusted timestamp) says when it was signed' },
      { verified: false, problem: 'malformed bundle: it is not JSON' },
    ]);
    const verdict = provenanceVerdict(facts, EXPECTED);
    expect(verdict.state).toBe('failed');
    expect(verdict.reasons).toEqual([
      `${subjectOf(image.digest)}: its signature does not verify: no transparency-log entry (nor a trusted timestamp) says when it was signed`,
      expect.stringMatching(/its SLSA provenance does not verify: the certificate is not from the trusted root/),
    ]);
  });
});

/** A registry that answers from a table of paths (else 404), or as a test scripts, counting requests. */
async function scriptedRegistry(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    answer(req, res);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Content by path: manifests and blobs a test puts there; the rest is 404. */
function contentTable(content: Map<string, { type: string; body: Buffer }>) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const found = content.get((req.url ?? '').replace(/\?.*$/, ''));
    if (!found) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length }).end(req.method === 'HEAD' ? undefined : found.body);
  };
}

describe('RegistryProvenanceFacts when the registry misbehaves or is flooded', () => {
  const DIGEST = sha256(Buffer.from('an image'));
  const TAG = DIGEST.replace(':', '-');
  /** `timeoutMs`: short, for the registry that hangs; the flood's 1.3 MB answer gets longer on a loaded machine. */
  const facts = (url: string, timeoutMs = 300) =>
    new RegistryProvenanceFacts(new OciRegistry({ baseUrl: url, timeoutMs, sleep: async () => undefined }), verifier).facts(
      'storefront',
      NAME,
      DIGEST,
    );
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it.each<[string, (req: http.IncomingMessage, res: http.ServerResponse) => void, RegExp]>([
    ['401', (_req, res) => res.writeHead(401).end(), /HTTP 401 \(check promotions.provenance.registry credentials\)/],
    ['429 for longer than it waits', (_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end(), /HTTP 429/],
    ['503', (_req, res) => res.writeHead(503).end(), /HTTP 503/],
    ['nothing (it hangs)', () => undefined, /no answer in 300 ms/],
  ])('is unknown, with the reason, when the registry answers %s', async (_what, answer, reason) => {
    const fake = await scriptedRegistry(answer);
    stop = fake.stop;
    const answered = await facts(fake.url);
    expect(answered.manifest).toEqual({ state: 'unreachable', reason: expect.stringMatching(reason) });
    expect(fake.requests).toHaveLength(1);
    const verdict = provenanceVerdict(answered, EXPECTED);
    expect(verdict.state).toBe('unknown');
    expect(verdict.reasons).toEqual([expect.stringMatching(reason)]);
  });

  it('is unknown when the manifest is there but its signatures cannot be listed (5xx)', async () => {
    const fake = await scriptedRegistry((req, res) => res.writeHead(req.method === 'HEAD' ? 200 : 500).end());
    stop = fake.stop;
    const answered = await facts(fake.url);
    expect(answered).toMatchObject({ manifest: { state: 'present' }, bundles: [], listingProblem: expect.stringMatching(/referrers .* HTTP 500/) });
    expect(provenanceVerdict(answered, EXPECTED)).toEqual({
      state: 'unknown',
      reasons: [expect.stringMatching(/^storefront: its signatures could not be listed: GET the referrers .* HTTP 500/)],
    });
  });

  it('is unknown, after 4 requests and no bundle read, when 10,000 bundles refer to the digest', async () => {
    const manifests = Array.from({ length: 10_000 }, (_, i) => ({
      mediaType: OCI_MANIFEST,
      artifactType: SIGSTORE_BUNDLE_V03,
      digest: `sha256:${i.toString(16).padStart(64, '0')}`,
      size: 1,
    }));
    const index = JSON.stringify({ schemaVersion: 2, manifests });
    const fake = await scriptedRegistry((req, res) => {
      if (req.method === 'HEAD') res.writeHead(200).end();
      else if (req.url?.includes('/referrers/')) res.writeHead(200, { 'content-type': OCI_INDEX }).end(index);
      else res.writeHead(404).end();
    });
    stop = fake.stop;
    // A fresh-clone CI run on a loaded 2-core machine took more than 300 ms over this answer.
    const answered = await facts(fake.url, 10_000);
    expect(answered.listingProblem).toBe('more than 8 sigstore bundles refer to it (at least 64), more than a build writes: none was read');
    expect(fake.requests).toHaveLength(2); // HEAD, referrers
    expect(provenanceVerdict(answered, EXPECTED).state).toBe('unknown');
  });

  describe('with real bundles served from a table', () => {
    const content = new Map<string, { type: string; body: Buffer }>();
    const put = (path: string, type: string, body: Buffer) => content.set(`/v2/${NAME}/${path}`, { type, body });
    /** Puts a bundle as an OCI 1.1 artifact (manifest + one layer) and answers its manifest's descriptor. */
    const putArtifact = (bundle: Buffer) => {
      put(`blobs/${sha256(bundle)}`, SIGSTORE_BUNDLE_V03, bundle);
      const manifest = bytes({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        artifactType: SIGSTORE_BUNDLE_V03,
        layers: [{ mediaType: SIGSTORE_BUNDLE_V03, digest: sha256(bundle), size: bundle.length }],
      });
      put(`manifests/${sha256(manifest)}`, OCI_MANIFEST, manifest);
      return { mediaType: OCI_MANIFEST, artifactType: SIGSTORE_BUNDLE_V03, digest: sha256(manifest), size: manifest.length };
    };
    beforeEach(() => {
      content.clear();
      put(`manifests/${DIGEST}`, OCI_MANIFEST, Buffer.from('{}'));
    });

    it('reads bundles listed by the referrers API, and is unknown when one cannot be read', async () => {
      const signed = putArtifact(bytes(await authority.signStatement(signatureOf(DIGEST), EXPECTED.signer)));
      const attested = putArtifact(bytes(await authority.signStatement(provenanceOf(DIGEST), EXPECTED.builder)));
      put(`referrers/${DIGEST}`, OCI_INDEX, bytes({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: [signed, attested] }));
      const fake = await scriptedRegistry(contentTable(content));
      stop = fake.stop;

      const answered = await facts(fake.url);
      expect(provenanceVerdict(answered, EXPECTED).state).toBe('verified');
      // With the referrers API, no referrers tag, and no cosign tags since it listed bundles: HEAD, referrers, 2 × (manifest, blob).
      expect(fake.requests).toHaveLength(6);

      content.delete([...content.keys()].find(path => path.includes('/blobs/'))!);
      const broken = await facts(fake.url);
      expect(broken.listingProblem).toMatch(/GET the blob .* HTTP 404/);
      expect(provenanceVerdict(broken, EXPECTED).state).toBe('unknown');
    });

    it("reads a sigstore bundle in cosign's .att tag, and names a legacy .sig signature without checking it", async () => {
      const attestation = bytes(await authority.signStatement(provenanceOf(DIGEST), EXPECTED.builder));
      put(`blobs/${sha256(attestation)}`, SIGSTORE_BUNDLE_V03, attestation);
      put(`manifests/${TAG}.att`, OCI_MANIFEST, bytes({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        layers: [{ mediaType: SIGSTORE_BUNDLE_V03, digest: sha256(attestation), size: attestation.length }],
      }));
      const legacySignature = bytes({ critical: { image: { 'docker-manifest-digest': DIGEST } } });
      const legacy = bytes({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        layers: [{
          mediaType: 'application/vnd.dev.cosign.simplesigning.v1+json',
          digest: sha256(legacySignature),
          size: legacySignature.length,
          annotations: { 'dev.cosignproject.cosign/signature': 'MEUCIQ…' },
        }],
      });
      put(`manifests/${TAG}.sig`, OCI_MANIFEST, legacy);
      const fake = await scriptedRegistry(contentTable(content));
      stop = fake.stop;

      const answered = await facts(fake.url);

      // HEAD, the referrers API and tag (404: nothing listed), .sig, .att, the .att's bundle.
      expect(fake.requests).toHaveLength(6);
      expect(answered.bundles).toEqual([
        expect.objectContaining({ verified: true, signer: EXPECTED.builder }),
        {
          verified: false,
          predicateType: COSIGN_SIGN_V1,
          problem: `cosign's legacy signature (tag ${TAG}.sig) is not a sigstore bundle and is not checked here (cosign --new-bundle-format writes one)`,
        },
      ]);
      const verdict = provenanceVerdict(answered, EXPECTED);
      expect(verdict).toMatchObject({ state: 'failed', sourceCommit: commitFor('table') });
      expect(verdict.reasons).toEqual([expect.stringContaining("its signature does not verify: cosign's legacy signature")]);
    });
  });
});
