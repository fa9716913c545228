/** The in-toto statements CI signs for one image (seed 002, steps 2 and 3). */

export const IN_TOTO_STATEMENT_V1 = 'https://in-toto.io/Statement/v1';
/** What cosign's keyless sign writes into a sigstore bundle's statement. */
export const COSIGN_SIGN_V1 = 'https://sigstore.dev/cosign/sign/v1';
export const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1';
/** The build type GitHub's artifact attestations write. */
const GITHUB_WORKFLOW_BUILD_TYPE = 'https://actions.github.io/buildtypes/workflow/v1';

/** The subject of a statement: the image reference without its digest, and the digest's hex. */
const subject = (image: string, digest: string) => [{ name: image, digest: { sha256: digest.replace(/^sha256:/, '') } }];

/** The build-sign workflow's signature: a statement that `digest` is the image. */
export function cosignSignStatement(image: string, digest: string): object {
  return { _type: IN_TOTO_STATEMENT_V1, subject: subject(image, digest), predicateType: COSIGN_SIGN_V1, predicate: {} };
}

export interface SlsaBuild {
  /** e.g. `127.0.0.1:5000/team-alpha/shop-storefront`. */
  image: string;
  digest: string;
  /** e.g. `https://github.com/refplat/shop`. */
  sourceRepo: string;
  sourceCommit: string;
  /** The workflow that built it, within the source repository. */
  workflowPath: string;
  /** The isolated provenance workflow's identity. */
  builderId: string;
}

/**
 * SLSA provenance v1 as GitHub's generator writes it: the workflow and
 * repository as external parameters, the source commit as the resolved
 * dependency, the builder as the provenance workflow.
 */
export function slsaProvenanceStatement(build: SlsaBuild): object {
  return {
    _type: IN_TOTO_STATEMENT_V1,
    subject: subject(build.image, build.digest),
    predicateType: SLSA_PROVENANCE_V1,
    predicate: {
      buildDefinition: {
        buildType: GITHUB_WORKFLOW_BUILD_TYPE,
        externalParameters: {
          workflow: { ref: 'refs/heads/main', repository: build.sourceRepo, path: build.workflowPath },
        },
        internalParameters: { github: { event_name: 'push' } },
        resolvedDependencies: [{ uri: `git+${build.sourceRepo}@refs/heads/main`, digest: { gitCommit: build.sourceCommit } }],
      },
      runDetails: { builder: { id: build.builderId } },
    },
  };
}
