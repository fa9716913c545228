import crypto from 'crypto';
import { SignedReferrer, signedReferrers } from '../__testUtils__/signedReferrers';
import { COSIGN_SIGN_V1, SLSA_PROVENANCE_V1 } from './attestations';
import { RunningRegistry, dockerRegistryInstalled, startDockerRegistry } from './dockerRegistry';
import { OCI_MANIFEST } from './ociPush';
import { BuildFlags, imageRepository, publishBuild } from './publishBuild';
import { SigstoreAuthority, startSigstoreAuthority } from './sigstoreAuthority';

const BUILD_SIGN = 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main';
const PROVENANCE = 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main';
const UNREVIEWED = 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/unreviewed';
const ISSUER = 'https://token.actions.githubusercontent.com';

const describeWithRegistry = dockerRegistryInstalled() ? describe : describe.skip;
if (!dockerRegistryInstalled()) {
  // eslint-disable-next-line no-console
  console.warn('publishBuild tests skipped: Debian docker-registry is not installed (apt-get install -y docker-registry)');
}

describeWithRegistry('publishBuild against a real docker-registry', () => {
  let registry: RunningRegistry;
  let authority: SigstoreAuthority;

  beforeAll(async () => {
    [registry, authority] = await Promise.all([startDockerRegistry(), startSigstoreAuthority()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([registry?.stop(), authority?.stop()]);
  });

  const commit = () => crypto.randomBytes(20).toString('hex');
  const NAME = imageRepository('alpha', 'shop', 'storefront');

  const publish = (sourceCommit: string, flags: BuildFlags = {}, run?: string) =>
    publishBuild({ registryUrl: registry.url, authority, team: 'alpha', product: 'shop', service: 'storefront', sourceCommit, flags, run });

  const manifestStatus = async (digest: string) =>
    (await fetch(`${registry.url}/v2/${NAME}/manifests/${digest}`, { method: 'HEAD', headers: { accept: OCI_MANIFEST } })).status;

  const referrers = (digest: string) => signedReferrers(registry.url, NAME, digest, authority.trustedRoot);

  const byType = (bundles: SignedReferrer[], predicateType: string) => bundles.filter(bundle => bundle.predicateType === predicateType);

  it('pushes the image, signs it as build-sign and attests SLSA provenance as the provenance workflow', async () => {
    const sourceCommit = commit();
    const digest = await publish(sourceCommit);

    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await manifestStatus(digest)).toBe(200);
    const bundles = (await referrers(digest)) as SignedReferrer[];
    expect(bundles).toHaveLength(2);
    expect(byType(bundles, COSIGN_SIGN_V1)).toEqual([expect.objectContaining({ san: BUILD_SIGN, issuer: ISSUER, subjectDigests: [digest] })]);
    const [provenance] = byType(bundles, SLSA_PROVENANCE_V1);
    expect(provenance).toEqual(expect.objectContaining({ san: PROVENANCE, issuer: ISSUER, subjectDigests: [digest] }));
    expect(provenance.predicate.runDetails.builder.id).toBe(PROVENANCE);
    expect(provenance.predicate.buildDefinition.externalParameters.workflow.repository).toBe('https://github.com/refplat/shop');
    expect(provenance.predicate.buildDefinition.resolvedDependencies[0].digest.gitCommit).toBe(sourceCommit);
  });

  it('unsigned: only the provenance is attached', async () => {
    const digest = await publish(commit(), { unsigned: true });

    expect(await manifestStatus(digest)).toBe(200);
    const bundles = (await referrers(digest)) as SignedReferrer[];
    expect(bundles.map(bundle => bundle.predicateType)).toEqual([SLSA_PROVENANCE_V1]);
  });

  it('wrongSigner: the signature verifies but names the workflow run from an unreviewed branch', async () => {
    const digest = await publish(commit(), { wrongSigner: true });

    const bundles = (await referrers(digest)) as SignedReferrer[];
    expect(byType(bundles, COSIGN_SIGN_V1)).toEqual([expect.objectContaining({ san: UNREVIEWED, issuer: ISSUER, subjectDigests: [digest] })]);
    expect(byType(bundles, SLSA_PROVENANCE_V1)).toEqual([expect.objectContaining({ san: PROVENANCE })]);
  });

  it('noProvenance: only the signature is attached', async () => {
    const digest = await publish(commit(), { noProvenance: true });

    const bundles = (await referrers(digest)) as SignedReferrer[];
    expect(bundles).toEqual([expect.objectContaining({ predicateType: COSIGN_SIGN_V1, san: BUILD_SIGN, subjectDigests: [digest] })]);
  });

  it('tampered: the signature is good but over another digest', async () => {
    const digest = await publish(commit(), { tampered: true });

    const [signature] = byType((await referrers(digest)) as SignedReferrer[], COSIGN_SIGN_V1);
    expect(signature.san).toBe(BUILD_SIGN);
    expect(signature.subjectDigests).toHaveLength(1);
    expect(signature.subjectDigests[0]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(signature.subjectDigests[0]).not.toBe(digest);
  });

  it('notPushed: the digest is the one a push gives, but nothing reached the registry', async () => {
    const sourceCommit = commit();
    const digest = await publish(sourceCommit, { notPushed: true });

    expect(await manifestStatus(digest)).toBe(404);
    expect(await referrers(digest)).toBe('none');
    expect(await publish(sourceCommit)).toBe(digest);
  });

  it('a rebuild of one commit in another CI run is another image', async () => {
    const sourceCommit = commit();
    const first = await publish(sourceCommit, { notPushed: true }, 'run-1');

    expect(await publish(sourceCommit, { notPushed: true }, 'run-2')).not.toBe(first);
    expect(await publish(sourceCommit, { notPushed: true }, 'run-1')).toBe(first);
  });
});
