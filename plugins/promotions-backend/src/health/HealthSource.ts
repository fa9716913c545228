import type { Application, ProductRef } from '@refplat/plugin-promotions-common';
import type { ApplicationListing, ObservedApplication } from '@refplat/plugin-promotions-node';

// The port lives in -node, where its fake ships; the backend's modules import it from here as before.
export type {
  ApplicationListing,
  ClusterEvidence,
  HealthSource,
  ObservedApplication,
  ResourceHealth,
} from '@refplat/plugin-promotions-node';

/**
 * The label keys the ApplicationSet template puts on every generated
 * Application (`promotions.applications.labels`), so that one selector finds
 * a Product's Applications. The seeds name Applications, not labels: these are
 * a setting, with the demo platform's keys as default.
 */
export interface ApplicationLabels {
  team: string;
  product: string;
}

export function productLabelSelector(labels: ApplicationLabels, product?: ProductRef): string {
  return product
    ? `${labels.team}=${product.team},${labels.product}=${product.product}`
    : `${labels.team},${labels.product}`;
}

/** The Product an Application's labels name, if they name one. */
export function productOfApplication(
  labels: ApplicationLabels,
  application: Application | undefined,
): ProductRef | undefined {
  const values = application?.metadata?.labels;
  const team = values?.[labels.team];
  const product = values?.[labels.product];
  return team && product ? { team, product } : undefined;
}

/**
 * Each Product's part of a listing of every Product's Applications, grouped
 * once (by the labels productLabelSelector selects on) rather than filtered
 * again for each Product.
 */
export function listingsByProduct(
  listing: ApplicationListing,
  labels: ApplicationLabels,
): (product: ProductRef) => ApplicationListing {
  const byProduct = new Map<string, ObservedApplication[]>();
  for (const observed of listing.applications) {
    const product = productOfApplication(labels, observed.application);
    if (!product) continue;
    const key = `${product.team}/${product.product}`;
    const applications = byProduct.get(key);
    if (applications) applications.push(observed);
    else byProduct.set(key, [observed]);
  }
  return product => ({
    errors: listing.errors,
    applications: byProduct.get(`${product.team}/${product.product}`) ?? [],
  });
}

/**
 * Asks every source at once; a source that fails makes its Applications
 * unknown (an entry in `errors`) without hiding the others'.
 */
/** A source that refused the plugin's credentials: not unreachable, and not fixed by asking again. */
export class CredentialsRejectedError extends Error {}

export async function listFromEach<T extends { name: string }>(
  sources: T[],
  kind: string,
  list: (source: T) => Promise<ObservedApplication[]>,
): Promise<ApplicationListing> {
  const results = await Promise.allSettled(sources.map(list));
  const listing: ApplicationListing = { applications: [], errors: [] };
  results.forEach((result, index) => {
    if (result.status === 'fulfilled') {
      listing.applications.push(...result.value);
    } else {
      const reason = result.reason as Error | undefined;
      const name = `${kind} '${sources[index].name}'`;
      listing.errors.push(
        reason instanceof CredentialsRejectedError
          ? `${name} ${reason.message}`
          : `${name} unreachable: ${reason?.message ?? reason}`,
      );
    }
  });
  return listing;
}
