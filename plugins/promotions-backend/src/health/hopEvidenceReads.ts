import type { KubeEvent } from '@refplat/plugin-promotions-common';

/**
 * What the hop evidence readers (ArgoCdHopEvidence, KubernetesHopEvidence) share: how much they
 * read of one service, and how they take the events an API sent.
 */

/** The Pods of the rolling-out ReplicaSet read at most: a canary has a few; they all say the same. */
export const PODS_READ = 5;

/**
 * The HTTPRoutes of an Application read at most, to find the ones carrying the service's
 * traffic (`routesOfRollout`): a stage has one per service or one for all.
 */
export const ROUTES_READ = 10;

/** Evidence reads in flight at once, over all ladder views: kind to the API asked, like the Rollout reads. */
export const EVIDENCE_READ_CONCURRENCY = 4;

/** The core/v1 Events of a list's `items`, leaving out what is not one (no `involvedObject`). */
export function kubeEventsOf(items: unknown): KubeEvent[] {
  return Array.isArray(items) ? (items as KubeEvent[]).filter(event => typeof event?.involvedObject === 'object') : [];
}
