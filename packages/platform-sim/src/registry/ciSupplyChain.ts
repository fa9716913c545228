import crypto from 'crypto';
import { BuildFlags, publishBuild } from './publishBuild';
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
  /** Pushes, signs and attests one build (or fails it as the flags say); answers its digest. */
  publish(build: ServiceBuild, flags: BuildFlags): Promise<string>;
  /** Stops the Sigstore if it was started here. */
  stop(): Promise<void>;
}

/**
 * Plays CI's push, sign and attest steps against `registry`, signing with
 * `sigstore` (or a local one started here). `sourceCommit` names the app repo
 * commit a build is made from; without one (no app repo yet) a random commit
 * stands in.
 */
export async function startCiSupplyChain(
  registry: { url: string },
  sigstore: SigstoreAuthority | undefined,
  sourceCommit: (build: ServiceBuild) => string,
): Promise<CiSupplyChain> {
  const authority = sigstore ?? (await startSigstoreAuthority());
  const registryUrl = registry.url.replace(/\/+$/, '');
  return {
    registryUrl,
    trustedRoot: authority.trustedRoot,
    publish: (build, flags) =>
      publishBuild({
        registryUrl,
        authority,
        ...build,
        sourceCommit: sourceCommit(build) || crypto.randomBytes(20).toString('hex'),
        // Every CI push is a new build, also of an unchanged commit.
        run: crypto.randomUUID(),
        flags,
      }),
    stop: async () => {
      if (!sigstore) await authority.stop();
    },
  };
}
