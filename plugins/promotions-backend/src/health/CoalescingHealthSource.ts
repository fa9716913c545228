import type { ProductRef } from '@refplat/plugin-promotions-common';
import {
  ApplicationListing,
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
 * only read mid-canary, where its freshness is the point.
 */
export class CoalescingHealthSource implements HealthSource {
  private readonly listings: RecentResults<ApplicationListing>;

  constructor(
    private readonly source: HealthSource,
    ttlMs: number,
  ) {
    this.listings = new RecentResults(ttlMs);
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

function listingKey(product?: ProductRef): string {
  // Ends with a separator: forgetting is by key prefix, and alpha/shop must not take alpha/shopping.
  return product ? `${product.team}/${product.product}:` : '*';
}
