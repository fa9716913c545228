import { COSIGN_SIGN_V1, CheckedBundle, ProvenanceFacts } from '@refplat/plugin-promotions-common';
import { CosignTag, Descriptor, OciRegistry, RegistryUnavailableError } from './OciRegistry';
import { SIGSTORE_BUNDLE_V03, SigstoreBundleVerifier } from './SigstoreBundleVerifier';

export interface RegistryProvenanceFactsOptions {
  /**
   * Sigstore bundles read per digest at most. A digest has one signature and
   * one attestation, a few with re-runs; more is a flooded referrers list,
   * which answers a listing problem (so `unknown`) and is not read. Keep it
   * below the OciRegistry's `maxReferrers`, or a flood is cut there unseen.
   */
  maxBundles?: number;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The reason a RegistryUnavailableError gives (the registry's fault: `unknown`); anything else is a bug and goes on up. */
const registryReason = (error: unknown): string => {
  if (error instanceof RegistryUnavailableError) return error.message;
  throw error;
};

/**
 * What the registry says about one digest, checked: whether its manifest is
 * there, and every sigstore bundle (signature or attestation) that refers to
 * it, each verified by Sigstore. The verdict (which signer, which builder)
 * is -common's `provenanceVerdict`.
 *
 * Registry requests for one digest, cold (results are kept per digest and
 * policy by the caller, so this runs once per digest):
 * - 1 `HEAD` of the manifest; an absent or unreachable manifest stops here;
 * - the listing, by OciRegistry.referrers: the referrers API, or the
 *   referrers tag on a registry without it (1; 2 the first time, when the
 *   API answers 404 and the OciRegistry remembers it has none);
 * - per sigstore bundle listed, its artifact manifest and its one layer (2);
 * - only when the listing has no sigstore bundle, cosign's `.sig` and `.att`
 *   tags (2) and each bundle layer in them (1): a registry written by cosign's
 *   tag scheme.
 *
 * Distribution 2.8 (no referrers API) with a signature and an attestation:
 * 1 + 1 + 2 × 2 = 6 (7 for the first digest an OciRegistry looks at); one of
 * the two only: 4; nothing attached: 4; not pushed: 1. At most
 * 3 + 2 × maxBundles: more bundles than maxBundles are a listing problem, and
 * none is read.
 */
export class RegistryProvenanceFacts {
  private readonly maxBundles: number;

  constructor(
    private readonly registry: OciRegistry,
    private readonly verifier: Pick<SigstoreBundleVerifier, 'check'>,
    options: RegistryProvenanceFactsOptions = {},
  ) {
    this.maxBundles = options.maxBundles ?? 8;
  }

  /**
   * @param subject - names the image in reasons, e.g. `storefront sha256:f6b37d…`
   * @param repository - the repository inside the registry (`registryRepository()`)
   */
  async facts(subject: string, repository: string, digest: string): Promise<ProvenanceFacts> {
    const answer = (rest: Pick<ProvenanceFacts, 'manifest'> & Partial<ProvenanceFacts>): ProvenanceFacts => ({
      subject,
      digest,
      bundles: [],
      ...rest,
    });
    if (!DIGEST.test(digest)) {
      return answer({ manifest: { state: 'unreachable', reason: `not a sha256 digest: ${digest.slice(0, 80)}` } });
    }
    let present: boolean;
    try {
      present = await this.registry.hasManifest(repository, digest);
    } catch (error) {
      return answer({ manifest: { state: 'unreachable', reason: registryReason(error) } });
    }
    if (!present) return answer({ manifest: { state: 'absent' } });
    try {
      return answer({ manifest: { state: 'present' }, ...(await this.bundles(repository, digest)) });
    } catch (error) {
      return answer({ manifest: { state: 'present' }, listingProblem: registryReason(error) });
    }
  }

  private async bundles(repository: string, digest: string): Promise<Pick<ProvenanceFacts, 'bundles' | 'listingProblem'>> {
    const referred = await this.registry.referrers(repository, digest, SIGSTORE_BUNDLE_V03);
    const flooded = (count: number) => ({
      bundles: [],
      listingProblem: `more than ${this.maxBundles} sigstore bundles refer to it (at least ${count}), more than a build writes: none was read`,
    });
    if (referred.length > this.maxBundles) return flooded(referred.length);
    // A build signs one way: bundles attached as referrers mean no cosign tags to look for.
    const cosignTags = referred.length ? [] : (await this.registry.cosignTags(repository, digest)).map(tag => this.cosignTag(digest, tag));
    const tagBundles = cosignTags.flatMap(tag => tag.bundles);
    if (referred.length + tagBundles.length > this.maxBundles) return flooded(referred.length + tagBundles.length);
    const checked = await Promise.all([
      ...referred.map(descriptor => this.referredBundle(repository, descriptor)),
      ...tagBundles.map(async layer => this.verifier.check(await this.registry.blob(repository, layer.digest))),
    ]);
    return { bundles: [...checked, ...cosignTags.flatMap(tag => tag.notes)] };
  }

  /** An OCI 1.1 artifact: a manifest whose one layer is the bundle. */
  private async referredBundle(repository: string, descriptor: Descriptor): Promise<CheckedBundle> {
    const artifact = await this.registry.manifest(repository, descriptor.digest);
    if (!artifact) return { verified: false, problem: `the referrers list ${descriptor.digest}, which the registry does not have` };
    const layers = artifact.manifest.layers ?? [];
    if (layers.length !== 1 || layers[0].mediaType !== SIGSTORE_BUNDLE_V03) {
      return { verified: false, problem: `malformed bundle: the artifact ${descriptor.digest} is not one sigstore bundle layer` };
    }
    return this.verifier.check(await this.registry.blob(repository, layers[0].digest));
  }

  /**
   * cosign's tag scheme (`sha256-<hex>.sig`, `.att`): its layers that are
   * sigstore bundles, to read. cosign's legacy layers (simple signing with
   * the signature and certificate in annotations, or a bare DSSE envelope)
   * are not sigstore bundles: rebuilding one from annotations would verify
   * something no tool signed that way, so they are named in a note, not
   * checked, and never count as verified.
   */
  private cosignTag(digest: string, { suffix, manifest }: CosignTag): { bundles: Descriptor[]; notes: CheckedBundle[] } {
    const layers = manifest.layers ?? [];
    const legacy = layers.find(layer => layer.mediaType !== SIGSTORE_BUNDLE_V03);
    const notes: CheckedBundle[] = legacy
      ? [{
          verified: false,
          ...claimedPredicateType(suffix, legacy),
          problem: `cosign's legacy ${suffix === 'sig' ? 'signature' : 'attestation'} (tag ${digest.replace(':', '-')}.${suffix}) is not a sigstore bundle and is not checked here (cosign --new-bundle-format writes one)`,
        }]
      : [];
    return { bundles: layers.filter(layer => layer.mediaType === SIGSTORE_BUNDLE_V03), notes };
  }
}

/** What a legacy cosign layer claims: a `.sig` is a signature; an `.att` layer names its predicate in an annotation. */
function claimedPredicateType(suffix: 'sig' | 'att', layer: Descriptor): { predicateType?: string } {
  if (suffix === 'sig') return { predicateType: COSIGN_SIGN_V1 };
  const annotated = (layer as { annotations?: Record<string, unknown> }).annotations?.predicateType;
  return typeof annotated === 'string' ? { predicateType: annotated.slice(0, 2048) } : {};
}
