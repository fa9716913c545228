import { Knex } from 'knex';
import {
  ImageNaming,
  Ladder,
  ProvenanceFacts,
  ServiceRef,
  SourceRevision,
  attestedSource,
  checksProvenanceOf,
} from '@refplat/plugin-promotions-common';
import type { Clock, PromotionGuard } from '@refplat/plugin-promotions-node';
import { DatabaseProvenanceStore } from '../database/ProvenanceStore';
import { OciRegistry } from './OciRegistry';
import { ProvenanceFactsSource, ProvenanceService } from './ProvenanceService';
import { RegistryProvenanceFacts } from './RegistryProvenanceFacts';
import { SigstoreBundleVerifier } from './SigstoreBundleVerifier';
import { annotateProvenance } from './annotateProvenance';
import { ProvenanceConfig } from './provenanceConfig';
import { provenanceGuard } from './provenanceGuard';
import { TrustedRoots } from './trustedRoot';

/** Provenance as the plugin uses it: the built-in guard, the ladder's cells and "what changed"'s source commits. */
export interface ProvenanceParts {
  guard: PromotionGuard;
  annotate(ladder: Ladder): Promise<void>;
  /** The source commit a digest's verified SLSA provenance names; nothing for a Product not checked. */
  attestedSource(service: ServiceRef, digest: string): Promise<SourceRevision | undefined>;
}

/** The registry's answers, verified against the trusted root in force (read again when it changes). */
class VerifiedRegistryFacts implements ProvenanceFactsSource {
  private current?: { id: string; facts: RegistryProvenanceFacts };

  constructor(
    private readonly registry: OciRegistry,
    private readonly roots: TrustedRoots,
  ) {}

  async facts(subject: string, repository: string, digest: string): Promise<ProvenanceFacts> {
    const { root, id } = await this.roots.load();
    if (this.current?.id !== id) {
      this.current = { id, facts: new RegistryProvenanceFacts(this.registry, new SigstoreBundleVerifier(root)) };
    }
    return this.current.facts.facts(subject, repository, digest);
  }
}

/** Undefined when `promotions.provenance.mode` is off: nothing is read then. */
export function createProvenance(options: {
  config: ProvenanceConfig;
  images: ImageNaming;
  db: Knex;
  clock: Clock;
  /** A look a view did not wait for has ended: the Product's ladder may say more now. */
  onSettled?: (service: ServiceRef) => void;
}): ProvenanceParts | undefined {
  const { config } = options;
  if (config.mode === 'off') return undefined;
  const registry = new OciRegistry({
    baseUrl: config.registry.url,
    credentials: config.registry.credentials,
    concurrency: config.registry.concurrency,
    timeoutMs: config.registry.timeoutMs,
    allowedHosts: config.registry.allowedHosts,
  });
  const roots = new TrustedRoots(config.trustedRoot);
  const service = new ProvenanceService({
    config,
    images: options.images,
    facts: new VerifiedRegistryFacts(registry, roots),
    store: new DatabaseProvenanceStore(options.db),
    clock: options.clock,
    trustedRootId: async () => (await roots.load()).id,
    onSettled: options.onSettled,
  });
  return {
    guard: provenanceGuard(config, service),
    annotate: async ladder => {
      if (checksProvenanceOf(config, ladder)) await annotateProvenance(ladder, service);
    },
    attestedSource: async (ref, digest) => (checksProvenanceOf(config, ref) ? attestedSource(await service.provenanceOf(ref, digest)) : undefined),
  };
}
