import { Config, readDurationFromConfig } from '@backstage/config';
import { InputError } from '@backstage/errors';
import { durationToMilliseconds } from '@backstage/types';
import { ProvenanceMode, SignerIdentity, unknownPlaceholders, workflowRepository } from '@refplat/plugin-promotions-common';

/** GitHub Actions' OIDC issuer: the seeds' CI signs keylessly with it (seed 002, step 2). */
export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';

/** The public-good Sigstore's TUF repository: its mirror, where its metadata is cached, and whether to stay offline. */
export interface TufRootSource {
  mirror: string;
  cachePath?: string;
  /** The trusted_root.json @sigstore/tuf embeds as of its release, nothing fetched: stale once Sigstore rotates a key. */
  offline: boolean;
}

/** The public-good Sigstore's TUF repository. */
export const PUBLIC_GOOD_TUF_MIRROR = 'https://tuf-repo-cdn.sigstore.dev';

/**
 * Where the trust in Sigstore comes from: a trusted_root.json file, one
 * served at a URL, or the public-good instance's through TUF.
 */
export type TrustedRootSource = { file: string } | { url: string } | { tuf: TufRootSource };

/** `promotions.provenance` when checked (`enforce` or `warn`). */
export interface ActiveProvenanceConfig {
  mode: Exclude<ProvenanceMode, 'off'>;
  /** The stages a digest must be verified to enter; every stage by default (admission checks everywhere). */
  stages: string[];
  /** The Products checked, as `team/product`; absent: every Product. */
  products?: string[];
  registry: {
    url: string;
    credentials?: { username: string; password: string };
    concurrency: number;
    timeoutMs: number;
    /** Hosts besides the registry's that may serve its tokens and redirects. */
    allowedHosts: string[];
  };
  trustedRoot: TrustedRootSource;
  /** The build-sign workflow's identity, a template over `{team}`, `{product}`, `{service}`. */
  signer: SignerIdentity;
  /** The isolated provenance workflow's identity, a template likewise. */
  builder: SignerIdentity;
  /**
   * The SLSA `builder.id` values accepted, templates likewise: the provenance
   * workflow's identity by default (GitHub's generators write their workflow's).
   */
  builderIds: string[];
  /**
   * The repository the SLSA provenance must name as its source, a template
   * likewise: by default the signer's repository, where its identity is a
   * GitHub workflow's; not checked when there is none.
   */
  sourceRepository?: string;
  /** How long a result that is not `verified` stands before the registry is asked again. */
  recheckMs: number;
  /** How long a `verified` result stands before a view reads the registry again behind it. */
  revalidateMs: number;
  /** Whether an override lifts `enforce` (break-glass); false by default. */
  overridable: boolean;
}

export type ProvenanceConfig = { mode: 'off' } | ActiveProvenanceConfig;

const MODES: ProvenanceMode[] = ['enforce', 'warn', 'off'];

function readIdentity(config: Config, key: 'signer' | 'builder'): SignerIdentity {
  const identity = {
    issuer: config.getOptionalString(`${key}.issuer`) ?? GITHUB_ACTIONS_ISSUER,
    identity: config.getString(`${key}.identity`),
  };
  const unknown = [...unknownPlaceholders(identity.issuer), ...unknownPlaceholders(identity.identity)];
  if (unknown.length) {
    throw new InputError(`promotions.provenance.${key} has placeholders other than {team}, {product}, {service}: ${unknown.map(name => `{${name}}`).join(', ')}`);
  }
  return identity;
}

function readTrustedRoot(config: Config): TrustedRootSource {
  const file = config.getOptionalString('trustedRoot.file');
  const url = config.getOptionalString('trustedRoot.url');
  const tuf = config.getOptional('trustedRoot.tuf');
  const given = [file, url, tuf].filter(value => value !== undefined && value !== false).length;
  if (given !== 1) {
    throw new InputError(
      "promotions.provenance.trustedRoot needs one of 'file' (a trusted_root.json, e.g. your private Sigstore's), 'url', or 'tuf' (the public-good Sigstore's, through its TUF repository)",
    );
  }
  if (file) return { file };
  if (url) return { url };
  const options = tuf === true ? undefined : config.getConfig('trustedRoot.tuf');
  const cachePath = options?.getOptionalString('cachePath');
  return {
    tuf: {
      mirror: options?.getOptionalString('mirror') ?? PUBLIC_GOOD_TUF_MIRROR,
      ...(cachePath ? { cachePath } : {}),
      offline: options?.getOptionalBoolean('offline') ?? false,
    },
  };
}

/** What a SLSA statement must name: the builder (`builder.ids`) and the source (`source.repository`). */
function readBindings(config: Config, signer: SignerIdentity, builder: SignerIdentity) {
  const builderIds = config.getOptionalStringArray('builder.ids') ?? [builder.identity];
  const sourceRepository = config.getOptionalString('source.repository') ?? workflowRepository(signer.identity);
  const unknown = [...builderIds, sourceRepository ?? ''].flatMap(unknownPlaceholders);
  if (unknown.length) {
    throw new InputError(
      `promotions.provenance.builder.ids and source.repository have placeholders other than {team}, {product}, {service}: ${unknown.map(name => `{${name}}`).join(', ')}`,
    );
  }
  return { builderIds, ...(sourceRepository ? { sourceRepository } : {}) };
}

/** `promotions.provenance`: off until configured; `enforce` and `warn` need a registry, a trusted root and both identities. */
export function readProvenanceConfig(config: Config | undefined, stages: string[]): ProvenanceConfig {
  const mode = (config?.getOptionalString('mode') ?? 'off') as ProvenanceMode;
  if (!MODES.includes(mode)) {
    throw new InputError(`promotions.provenance.mode must be 'enforce', 'warn' or 'off', got ${JSON.stringify(mode)}`);
  }
  if (mode === 'off' || !config) return { mode: 'off' };
  const requiredStages = config.getOptionalStringArray('stages') ?? stages;
  const unknownStage = requiredStages.find(stage => !stages.includes(stage));
  if (unknownStage) {
    throw new InputError(`promotions.provenance.stages names '${unknownStage}', which is not in promotions.stages`);
  }
  const products = config.getOptionalStringArray('products');
  const malformed = products?.find(product => !/^[^/\s]+\/[^/\s]+$/.test(product));
  if (malformed !== undefined) {
    throw new InputError(`promotions.provenance.products names '${malformed}', which is not team/product`);
  }
  const username = config.getOptionalString('registry.username');
  const password = config.getOptionalString('registry.password');
  if (!username !== !password) {
    throw new InputError('promotions.provenance.registry needs both username and password, or neither');
  }
  const timeout = config.getOptionalConfig('registry.timeout');
  const signer = readIdentity(config, 'signer');
  const builder = readIdentity(config, 'builder');
  const recheck = config.getOptionalConfig('recheck');
  const revalidate = config.getOptionalConfig('revalidate');
  return {
    mode,
    stages: requiredStages,
    ...(products ? { products } : {}),
    registry: {
      url: config.getString('registry.url'),
      ...(username && password ? { credentials: { username, password } } : {}),
      concurrency: config.getOptionalNumber('registry.concurrency') ?? 4,
      timeoutMs: timeout ? durationToMilliseconds(readDurationFromConfig(timeout)) : 10_000,
      allowedHosts: config.getOptionalStringArray('registry.allowedHosts') ?? [],
    },
    trustedRoot: readTrustedRoot(config),
    ...readBindings(config, signer, builder),
    signer,
    builder,
    recheckMs: recheck ? durationToMilliseconds(readDurationFromConfig(recheck)) : 60_000,
    revalidateMs: revalidate ? durationToMilliseconds(readDurationFromConfig(revalidate)) : 24 * 60 * 60_000,
    overridable: config.getOptionalBoolean('overridable') ?? false,
  };
}
