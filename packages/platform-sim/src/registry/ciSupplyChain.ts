import crypto from 'crypto';
import { BuildFlags, BuildIdentities, buildIdentitiesOf, publishBuild } from './publishBuild';
import { SigstoreAuthority, startSigstoreAuthority } from './sigstoreAuthority';

/** A Service that CI builds. */
export interface ServiceBuild {
  team: string;
  product: string;
  service: string;
}

/** The simulator's CI supply chain: a registry it pushes to and the Sigstore it signs with. */
export interface CiSupplyChain {
  registryUrl: string;
  /** The trusted_root.json verifiers need for these signatures. */
  trustedRoot: object;
  /** Who signs and attests these builds, templates over `{product}`: a verifier's expected identities. */
  identities: BuildIdentities;
  /** Pushes, signs and attests one build (or fails it as the flags say); answers its digest. */
  publish(build: ServiceBuild, flags: BuildFlags): Promise<string>;
  /** Stops the Sigstore if it was started here. */
  stop(): Promise<void>;
}

/**
 * Plays CI's push, sign and attest steps against `registry`, signing with
 * `sigstore` (or a local one started here). Each build is of the commit
 * `source.sourceCommit` makes in the Product's source repository, which
 * lives under `source.owner` (e.g. `http://127.0.0.1:7070/web/refplat`): the
 * provenance names it and its workflows sign.
 */
export async function startCiSupplyChain(
  registry: { url: string },
  sigstore: SigstoreAuthority | undefined,
  source: { owner: string; sourceCommit: (build: ServiceBuild) => Promise<string> },
): Promise<CiSupplyChain> {
  const authority = sigstore ?? (await startSigstoreAuthority());
  const registryUrl = registry.url.replace(/\/+$/, '');
  const identities = buildIdentitiesOf(source.owner);
  return {
    registryUrl,
    trustedRoot: authority.trustedRoot,
    identities,
    publish: async (build, flags) =>
      publishBuild({
        registryUrl,
        authority,
        ...build,
        sourceCommit: await source.sourceCommit(build),
        sourceRepo: `${source.owner}/{product}`,
        identities,
        // Every CI push is a new build.
        run: crypto.randomUUID(),
        flags,
      }),
    stop: async () => {
      if (!sigstore) await authority.stop();
    },
  };
}
