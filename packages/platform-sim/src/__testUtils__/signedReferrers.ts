import { bundleFromJSON } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { Verifier, toSignedEntity, toTrustMaterial } from '@sigstore/verify';
import { OCI_INDEX, OCI_MANIFEST, referrersTag } from '../registry/ociPush';
import { SIGSTORE_BUNDLE_V03 } from '../registry/publishBuild';

/** One sigstore bundle attached to an image, read back and verified as a verifier would. */
export interface SignedReferrer {
  /** The certificate's URI SAN and issuer, from @sigstore/verify's Signer. */
  san?: string;
  issuer?: string;
  predicateType: string;
  /** `sha256:<hex>` of each subject of the statement. */
  subjectDigests: string[];
  predicate: any;
}

/**
 * The sigstore bundles attached to `digest`, through the referrers tag's
 * index (Distribution 2.8 has no referrers API), each artifact manifest and
 * its bundle blob, verified against `trustedRoot`; 'none' when the tag is absent.
 * Throws when a bundle does not verify.
 */
export async function signedReferrers(
  registryUrl: string,
  name: string,
  digest: string,
  trustedRoot: object,
): Promise<SignedReferrer[] | 'none'> {
  const verifier = new Verifier(toTrustMaterial(TrustedRoot.fromJSON(trustedRoot)));
  const json = async (path: string, accept?: string) => (await fetch(`${registryUrl}/v2/${name}/${path}`, accept ? { headers: { accept } } : {})).json();
  const index = await fetch(`${registryUrl}/v2/${name}/manifests/${referrersTag(digest)}`, { headers: { accept: OCI_INDEX } });
  if (index.status === 404) return 'none';
  const { manifests } = (await index.json()) as { manifests: Array<{ digest: string; artifactType: string }> };
  return Promise.all(
    manifests.map(async descriptor => {
      const artifact = await json(`manifests/${descriptor.digest}`, OCI_MANIFEST);
      if (descriptor.artifactType !== SIGSTORE_BUNDLE_V03 || artifact.subject?.digest !== digest) {
        throw new Error(`referrer ${descriptor.digest} is not a sigstore bundle about ${digest}`);
      }
      const bundle = await json(`blobs/${artifact.layers[0].digest}`);
      const signer = verifier.verify(toSignedEntity(bundleFromJSON(bundle)));
      const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString());
      return {
        san: signer.identity?.subjectAlternativeName,
        issuer: signer.identity?.extensions?.issuer,
        predicateType: statement.predicateType,
        subjectDigests: statement.subject.map((subject: any) => `sha256:${subject.digest.sha256}`),
        predicate: statement.predicate,
      };
    }),
  );
}
