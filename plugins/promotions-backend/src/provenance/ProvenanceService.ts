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
    const subject = `${service.service} ${shortDigest(digest)}`;
    let policy: string;
    try {
      policy = await this.policyOf(service);
    } catch (error) {
      return { state: 'unknown', reasons: [`${subject}: ${(error as Error).message}`] };
    }
    const key = `${policy} ${digest}`;
    if (!options.fresh) {
      const verified = this.verified.get(key);
      if (verified) return verified.provenance;
      const recent = this.recent.get(key);
      if (recent && recent.until > this.options.clock.now().getTime()) return recent.provenance;
    }
    const lookKey = options.fresh ? `fresh ${key}` : key;
    const running = this.inFlight.get(lookKey);
    if (running) return running;
    const look = this.look(service, subject, digest, policy, options.fresh ?? false).finally(() => this.inFlight.delete(lookKey));
    this.inFlight.set(lookKey, look);
    return look;
  }

  /**
   * For a view, which never waits on the registry: the verdict when it is
   * kept or comes within `waitMs`, else `checking` while the look goes on;
   * when it ends, `onSettled` is told once, so the ladder can be pushed again.
   */
  async provenanceForView(service: ServiceRef, digest: string, waitMs = VIEW_WAIT_MS): Promise<Provenance> {
    const key = `${service.team}/${service.product}/${service.service} ${digest}`;
    const checking: Provenance = {
      state: 'checking',
      reasons: [`${service.service} ${shortDigest(digest)}: being checked against the registry; the ladder updates when it is done`],
    };
    // A look a view already left running: the next views do not wait for it again.
    if (this.awaitedByViews.has(key)) return checking;
    const stale = await this.staleVerified(service, digest);
    if (stale) {
      // Verified long enough ago to read again: shown as it was while the registry is asked behind it.
      this.settleForViews(key, service, this.provenanceOf(service, digest, { fresh: true }));
      return stale;
    }
    const look = this.provenanceOf(service, digest);
    let waitEnded = () => {};
    const waited = new Promise<undefined>(resolve => {
      waitEnded = () => resolve(undefined);
    });
    const timer = setTimeout(() => waitEnded(), waitMs);
    const answer = await Promise.race([look, waited]);
    clearTimeout(timer);
    if (answer) return answer;
    this.settleForViews(key, service, look);
    return checking;
  }

  /** The verified result kept in memory for the digest, when it is due to be read again (`revalidateMs`). */
  private async staleVerified(service: ServiceRef, digest: string): Promise<Provenance | undefined> {
    const kept = this.verified.get(`${await this.policyOf(service).catch(() => '')} ${digest}`);
    return kept && kept.revalidateAt <= this.options.clock.now().getTime() ? kept.provenance : undefined;
  }

  /** Tells `onSettled` once when a look views did not wait for ends; the views meanwhile answer without waiting. */
  private settleForViews(key: string, service: ServiceRef, look: Promise<Provenance>) {
    if (this.awaitedByViews.has(key)) return;
    this.awaitedByViews.add(key);
    void look.finally(() => {
      this.awaitedByViews.delete(key);
      this.options.onSettled?.(service);
    });
  }

  private async look(service: ServiceRef, subject: string, digest: string, policy: string, fresh: boolean): Promise<Provenance> {
    const { store, facts, clock, config, images } = this.options;
    const key = `${policy} ${digest}`;
    const stored = fresh ? undefined : await store.get(digest, policy);
    if (stored) return this.rememberVerified(key, stored);
    let provenance: Provenance;
    try {
      provenance = provenanceVerdict(await facts.facts(subject, registryRepository(service, images), digest), this.expected(service));
    } catch (error) {
      provenance = { state: 'unknown', reasons: [`${subject}: ${(error as Error).message}`] };
    }
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
