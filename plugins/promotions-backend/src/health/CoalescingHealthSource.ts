import type { ProductRef } from '@refplat/plugin-promotions-common';
import {
  ApplicationListing,
  ClusterEvidence,
  HealthSource,
  ObservedApplication,
  ResourceHealth,
} from './HealthSource';
import { RecentResults } from './RecentResults';

/**
 * Bounds the Application list calls, the one per-view read that is not keyed
 * by an immutable version: one list per Product (or for all Products) per TTL
 * per replica, shared by every viewer. Resource trees and live Rollouts pass
 * through: the tree is cached by resourceVersion already, and a Rollout is
 * only read mid-canary, where its freshness is the point. A service's hop
 * evidence, where the source reads it, is read at most once per TTL per
 * Application and health (issue 47: events cost a stalled stage once per TTL).
 */
export class CoalescingHealthSource implements HealthSource {
  private readonly listings: RecentResults<ApplicationListing>;
  private readonly evidence: RecentResults<ClusterEvidence>;
  /** Present exactly when the source reads hop evidence. */
  readonly hopEvidence?: (observed: ObservedApplication, service: string) => Promise<ClusterEvidence>;

  constructor(
    private readonly source: HealthSource,
    ttlMs: number,
  ) {
    this.listings = new RecentResults(ttlMs);
    this.evidence = new RecentResults(ttlMs);
    const read = source.hopEvidence?.bind(source);
    if (read) {
      this.hopEvidence = (observed, service) =>
        this.evidence.get(evidenceKey(observed, service), () => read(observed, service));
    }
  }

  listApplications(product?: ProductRef): Promise<ApplicationListing> {
    return this.listings.get(listingKey(product), () => this.source.listApplications(product));
  }

  /** A health event changed this Product's Applications: its listings are asked again. */
  forgetProduct(product: ProductRef): void {
    this.listings.forget(listingKey(product), listingKey());
  }

  resourceHealth(observed: ObservedApplication): Promise<ResourceHealth> {
    return this.source.resourceHealth(observed);
  }

  liveRollouts(observed: ObservedApplication, services: string[]) {
    return this.source.liveRollouts(observed, services);
  }
}

/**
 * Not the resourceVersion: the controller writes the Application at every refresh, and the
 * evidence is worth reading once per TTL, not once per write. A change of health is a new picture.
 */
function evidenceKey({ source, application }: ObservedApplication, service: string): string {
  const { metadata, status } = application;
  return `${source}:${metadata?.namespace ?? ''}/${metadata?.name ?? ''}:${status?.health?.status ?? ''}:${service}`;
}

function listingKey(product?: ProductRef): string {
  // Ends with a separator: forgetting is by key prefix, and alpha/shop must not take alpha/shopping.
  return product ? `${product.team}/${product.product}:` : '*';
}
