import crypto from 'crypto';
import {
  ImageNaming,
  Provenance,
  ProvenanceExpectations,
  ProvenanceFacts,
  ServiceRef,
  expectedSigner,
  fillTemplate,
  provenanceVerdict,
  registryRepository,
  shortDigest,
} from '@refplat/plugin-promotions-common';
import type { Clock, ProvenanceStore } from '@refplat/plugin-promotions-node';
import { ActiveProvenanceConfig } from './provenanceConfig';
import { recordProvenanceVerdict } from '../telemetry/promotionsMetrics';

/** What the registry answers about a digest, checked by Sigstore (the registry adapter). */
export interface ProvenanceFactsSource {
  facts(subject: string, repository: string, digest: string): Promise<ProvenanceFacts>;
}

export interface ProvenanceServiceOptions {
  config: ActiveProvenanceConfig;
  images: ImageNaming;
  facts: ProvenanceFactsSource;
  store: ProvenanceStore;
  clock: Clock;
  /** Identifies the trusted root in force: a result verified under another root is not reused. */
  trustedRootId: () => Promise<string>;
  /** A look a view did not wait for has ended: the Product's ladder may say more now. */
  onSettled?: (service: ServiceRef) => void;
}

/** How long a view waits for the registry before it answers `checking` (a warm registry answers within it). */
export const VIEW_WAIT_MS = 100;

const VERIFIED_IN_MEMORY = 10_000;

/** A digest under a Service's policy: what a look reads, and the key its result is kept by. */
interface Located {
  service: ServiceRef;
  digest: string;
  /** Names the image in reasons, e.g. `storefront sha256:f6b37d…`. */
  subject: string;
  policy: string;
  key: string;
}

/**
 * Where a Service's digest came from. A digest is immutable, so a verified
 * result is kept per (digest, policy) in the store and the registry is never
 * asked about it again; a result that is not verified (CI may still be
 * signing, the registry may be down) stands for `recheckMs`. Concurrent
 * asks for one digest share one look. Whatever goes wrong is an `unknown`
 * with its reason, never an error: the ladder shows it, `enforce` refuses it.
 */
export class ProvenanceService {
  /** Verified results read or written here: a ladder view asks per cell and per guard preview, the store once. */
  private readonly verified = new Map<string, { provenance: Provenance; revalidateAt: number }>();
  private readonly inFlight = new Map<string, Promise<Provenance>>();
  private readonly recent = new Map<string, { provenance: Provenance; until: number }>();
  /** Looks a view answered `checking` for, whose end `onSettled` is told. */
  private readonly awaitedByViews = new Set<string>();

  constructor(private readonly options: ProvenanceServiceOptions) {}

  /**
   * Where the digest came from: from memory or the store where it verified
   * before, else from the registry. `fresh`: from the registry whatever was
   * kept (the Gate before it merges: trust is checked at the moment of use),
   * and a kept result it no longer confirms is forgotten, for every replica.
   */
  async provenanceOf(service: ServiceRef, digest: string, options: { fresh?: boolean } = {}): Promise<Provenance> {
    const at = await this.locate(service, digest);
    return 'unknown' in at ? at.unknown : this.answer(at, options.fresh ?? false);
  }

  /**
   * For a view, which never waits on the registry: the verdict when it is
   * kept or comes within `waitMs`, else `checking` while the look goes on;
   * when it ends, `onSettled` is told once, so the ladder can be pushed again.
   */
  async provenanceForView(service: ServiceRef, digest: string, waitMs = VIEW_WAIT_MS): Promise<Provenance> {
    const at = await this.locate(service, digest);
    if ('unknown' in at) return at.unknown;
    const checking: Provenance = {
      state: 'checking',
      reasons: [`${at.subject}: being checked against the registry; the ladder updates when it is done`],
    };
    // A look a view already left running: the next views do not wait for it again.
    if (this.awaitedByViews.has(at.key)) return checking;
    const kept = this.verified.get(at.key);
    if (kept && kept.revalidateAt <= this.options.clock.now().getTime()) {
      // Verified long enough ago to read again: shown as it was while the registry is asked behind it.
      this.settleForViews(at, this.answer(at, true));
      return kept.provenance;
    }
    const look = this.answer(at, false);
    let waitEnded = () => {};
    const waited = new Promise<undefined>(resolve => {
      waitEnded = () => resolve(undefined);
    });
    const timer = setTimeout(() => waitEnded(), waitMs);
    const answer = await Promise.race([look, waited]);
    clearTimeout(timer);
    if (answer) return answer;
    this.settleForViews(at, look);
    return checking;
  }

  /** The digest under the Service's policy (who must have signed, where, under which root), or why it cannot be. */
  private async locate(service: ServiceRef, digest: string): Promise<Located | { unknown: Provenance }> {
    const subject = `${service.service} ${shortDigest(digest)}`;
    try {
      const policy = await this.policyOf(service);
      return { service, digest, subject, policy, key: `${policy} ${digest}` };
    } catch (error) {
      return { unknown: { state: 'unknown', reasons: [`${subject}: ${(error as Error).message}`] } };
    }
  }

  /** From memory (unless `fresh`), from a look already running, or from a new look. */
  private answer(at: Located, fresh: boolean): Promise<Provenance> {
    if (!fresh) {
      const verified = this.verified.get(at.key);
      if (verified) return Promise.resolve(verified.provenance);
      const recent = this.recent.get(at.key);
      if (recent && recent.until > this.options.clock.now().getTime()) return Promise.resolve(recent.provenance);
    }
    const lookKey = fresh ? `fresh ${at.key}` : at.key;
    const running = this.inFlight.get(lookKey);
    if (running) return running;
    const look = this.look(at, fresh).finally(() => this.inFlight.delete(lookKey));
    this.inFlight.set(lookKey, look);
    return look;
  }

  /** Tells `onSettled` once when a look views did not wait for ends; the views meanwhile answer without waiting. */
  private settleForViews(at: Located, look: Promise<Provenance>) {
    if (this.awaitedByViews.has(at.key)) return;
    this.awaitedByViews.add(at.key);
    void look.finally(() => {
      this.awaitedByViews.delete(at.key);
      this.options.onSettled?.(at.service);
    });
  }

  private async look(at: Located, fresh: boolean): Promise<Provenance> {
    const { store, facts, clock, config, images } = this.options;
    const { service, subject, digest, policy, key } = at;
    const stored = fresh ? undefined : await store.get(digest, policy);
    if (stored) return this.rememberVerified(key, stored);
    let provenance: Provenance;
    try {
      provenance = provenanceVerdict(await facts.facts(subject, registryRepository(service, images), digest), this.expected(service));
    } catch (error) {
      provenance = { state: 'unknown', reasons: [`${subject}: ${(error as Error).message}`] };
    }
    recordProvenanceVerdict(provenance.state);
    if (provenance.state === 'verified') {
      await store.put(digest, policy, provenance, clock.now());
      this.rememberVerified(key, provenance);
    } else {
      if (fresh) {
        // What verified before and does not now (a signature deleted or replaced) is verified no more.
        this.verified.delete(key);
        await store.forget(digest, policy);
      }
      this.forgetExpired();
      this.recent.set(key, { provenance, until: clock.now().getTime() + config.recheckMs });
    }
    return provenance;
  }

  /** Who must have signed and attested, and what the SLSA statement must name, for this Service. */
  private expected(service: ServiceRef): ProvenanceExpectations {
    const { signer, builder, builderIds, sourceRepository } = this.options.config;
    return {
      signer: expectedSigner(signer, service),
      builder: expectedSigner(builder, service),
      builderIds: builderIds.map(id => fillTemplate(id, service)),
      ...(sourceRepository ? { sourceRepo: fillTemplate(sourceRepository, service) } : {}),
    };
  }

  /** What a verification depends on besides the digest: who must have signed, where, under which root. */
  private async policyOf(service: ServiceRef): Promise<string> {
    const policy = {
      ...this.expected(service),
      registry: this.options.config.registry.url,
      repository: registryRepository(service, this.options.images),
      trustedRoot: await this.options.trustedRootId(),
    };
    return crypto.createHash('sha256').update(JSON.stringify(policy)).digest('hex');
  }

  /**
   * Keeps a verified result in memory, up to VERIFIED_IN_MEMORY of them (the oldest go first; the store
   * keeps all), until `revalidateMs` from now, after which a view reads the registry again behind it.
   */
  private rememberVerified(key: string, provenance: Provenance): Provenance {
    if (this.verified.size >= VERIFIED_IN_MEMORY) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(key, { provenance, revalidateAt: this.options.clock.now().getTime() + this.options.config.revalidateMs });
    return provenance;
  }

  private forgetExpired() {
    const now = this.options.clock.now().getTime();
    for (const [key, entry] of this.recent) if (entry.until <= now) this.recent.delete(key);
  }
}
