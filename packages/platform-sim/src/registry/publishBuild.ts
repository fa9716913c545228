import { cosignSignStatement, slsaProvenanceStatement } from './attestations';
import { attachArtifact, imageContent, pushImage, sha256 } from './ociPush';
import { SignerIdentity, SigstoreAuthority } from './sigstoreAuthority';

/** The media type of a sigstore bundle, as an OCI artifact type. */
export const SIGSTORE_BUNDLE_V03 = 'application/vnd.dev.sigstore.bundle.v0.3+json';
/** The OIDC issuer of GitHub Actions' workflow identities. */
export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';

/** Who signs a build, as templates over `{team}`, `{product}` and `{service}`. */
export interface BuildIdentities {
  /** The build-sign workflow, which pushes and cosign-signs the image. */
  signer: SignerIdentity;
  /** The isolated provenance workflow, which attests SLSA provenance. */
  builder: SignerIdentity;
  /** Who signs instead of the build-sign workflow with `wrongSigner`. */
  wrongSigner: SignerIdentity;
}

/**
 * The workflows on main of the Product's source repository under `owner`
 * (e.g. `https://github.com/refplat`): build-sign signs, provenance attests.
 */
export function buildIdentitiesOf(owner: string): BuildIdentities {
  const workflow = (file: string, branch: string) => ({
    issuer: GITHUB_ACTIONS_ISSUER,
    identity: `${owner}/{product}/.github/workflows/${file}@refs/heads/${branch}`,
  });
  return {
    signer: workflow('build-sign.yml', 'main'),
    builder: workflow('provenance.yml', 'main'),
    // The same workflow run from a branch nobody reviewed: right repo, wrong identity.
    wrongSigner: workflow('build-sign.yml', 'unreviewed'),
  };
}

/** The seeds' identities: the Product's repository's workflows on main, on github.com. */
export const DEFAULT_BUILD_IDENTITIES: BuildIdentities = buildIdentitiesOf('https://github.com/refplat');

/** The Product's source repository, as a template. */
export const DEFAULT_SOURCE_REPO = 'https://github.com/refplat/{product}';

/** The supply chain's failures, one flag each (issue 25's simulator flags). */
export interface BuildFlags {
  /** The sign step did not run: no signature. */
  unsigned?: boolean;
  /** The signature is by `identities.wrongSigner`. */
  wrongSigner?: boolean;
  /** The provenance workflow did not run: no SLSA provenance. */
  noProvenance?: boolean;
  /** The signature's statement names another digest. */
  tampered?: boolean;
  /** The push step did not run: the digest is computed, nothing reaches the registry. */
  notPushed?: boolean;
  /** The provenance workflow signs a statement naming another builder ({@link FOREIGN_BUILDER_ID}). */
  foreignBuilder?: boolean;
  /** The provenance workflow signs a statement naming another source repository ({@link FOREIGN_SOURCE_REPO}). */
  foreignSource?: boolean;
}

/** What a statement signed by the right identity may still claim: a builder nobody trusts. */
export const FOREIGN_BUILDER_ID = 'https://evil.example/builder@v1';
/** And a source repository that is not the Product's. */
export const FOREIGN_SOURCE_REPO = 'https://github.com/evil/backdoor';

export interface PublishBuildRequest {
  /** e.g. `http://127.0.0.1:5000`. */
  registryUrl: string;
  authority: SigstoreAuthority;
  team: string;
  product: string;
  service: string;
  /** The commit of the app repo that was built. */
  sourceCommit: string;
  /** The CI run, which makes the image's content: a rebuild of one commit is another image. Default: the commit alone. */
  run?: string;
  /** Template; default {@link DEFAULT_SOURCE_REPO}. */
  sourceRepo?: string;
  /** Templates; each defaults to {@link DEFAULT_BUILD_IDENTITIES}. */
  identities?: Partial<BuildIdentities>;
  flags?: BuildFlags;
}

/** The image repository of a Service, by the contract's convention. */
export const imageRepository = (team: string, product: string, service: string) => `team-${team}/${product}-${service}`;

const fill = (template: string, names: Record<'team' | 'product' | 'service', string>) =>
  template.replace(/\{(team|product|service)\}/g, (_, name: 'team' | 'product' | 'service') => names[name]);

const filled = (signer: SignerIdentity, names: Record<'team' | 'product' | 'service', string>): SignerIdentity => ({
  issuer: fill(signer.issuer, names),
  identity: fill(signer.identity, names),
});

/**
 * Plays CI for one build of a Service (seed 002, steps 2 and 3): pushes its
 * image, signs it as the build-sign workflow, attests SLSA provenance as the
 * provenance workflow, and attaches both sigstore bundles to the image as
 * OCI 1.1 referrers. The flags break one part each. Answers the image digest.
 */
export async function publishBuild(request: PublishBuildRequest): Promise<string> {
  const { registryUrl, authority, team, product, service, sourceCommit, flags = {} } = request;
  const names = { team, product, service };
  const identities = { ...DEFAULT_BUILD_IDENTITIES, ...request.identities };
  const repository = imageRepository(team, product, service);
  const build = request.run ? `${sourceCommit} run ${request.run}` : sourceCommit;
  if (flags.notPushed) return imageContent(repository, build).descriptor.digest;

  const image = await pushImage(registryUrl, repository, build);
  const reference = `${new URL(registryUrl).host}/${repository}`;
  const attach = async (bundle: object) =>
    attachArtifact(registryUrl, repository, image, SIGSTORE_BUNDLE_V03, Buffer.from(JSON.stringify(bundle)));

  if (!flags.unsigned) {
    const signedDigest = flags.tampered ? sha256(`not ${image.digest}`) : image.digest;
    const signer = filled(flags.wrongSigner ? identities.wrongSigner : identities.signer, names);
    await attach(await authority.signStatement(cosignSignStatement(reference, signedDigest), signer));
  }
  if (!flags.noProvenance) {
    const builder = filled(identities.builder, names);
    const provenance = slsaProvenanceStatement({
      image: reference,
      digest: image.digest,
      sourceRepo: flags.foreignSource ? FOREIGN_SOURCE_REPO : fill(request.sourceRepo ?? DEFAULT_SOURCE_REPO, names),
      sourceCommit,
      workflowPath: '.github/workflows/build-sign.yml',
      builderId: flags.foreignBuilder ? FOREIGN_BUILDER_ID : builder.identity,
    });
    await attach(await authority.signStatement(provenance, builder));
  }
  return image.digest;
}
