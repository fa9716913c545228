import type { Application, HopEvidence, ProductRef, ResourceNode, Rollout } from '@refplat/plugin-promotions-common';

/**
 * One Application as one health source (ArgoCD instance or cluster) sees it.
 *
 * @public
 */
export interface ObservedApplication {
  application: Application;
  /** The configured name of the ArgoCD instance or cluster that answered. */
  source: string;
  /** Link to the Application in the ArgoCD UI, when the source knows one. */
  uiUrl?: string;
}

/**
 * The Applications a health source listed, and the sources it could not ask.
 *
 * @public
 */
export interface ApplicationListing {
  applications: ObservedApplication[];
  /** Sources that could not be asked; their Applications' health is unknown. */
  errors: string[];
}

/**
 * Per-resource health kept outside the Application (Argo CD 3: `resourceHealthSource: appTree`).
 *
 * @public
 */
export interface ResourceHealth {
  /** Live resources with their health, as the resource tree's nodes. */
  nodes: ResourceNode[];
  /** The kinds `nodes` covers (a resource of another kind is not judged by it); all when absent. */
  kinds?: string[];
  /** Live Rollouts by name that the source read on the way, so they need not be read again. */
  rollouts: Map<string, Rollout>;
}

/**
 * Where the ladder learns what really runs. Implementations batch: one list
 * call per source per Product, the resource health once per Application
 * version, and a Rollout read only when a canary needs explaining.
 *
 * @public
 */
export interface HealthSource {
  /** One Product's Applications, or every Product's when none is given. */
  listApplications(product?: ProductRef): Promise<ApplicationListing>;
  /** Only asked for an Application whose status keeps no resource health (`appTree`). */
  resourceHealth(observed: ObservedApplication): Promise<ResourceHealth>;
  /** The live Rollouts of these services, by name; one that does not exist is left out. */
  liveRollouts(observed: ObservedApplication, services: string[]): Promise<Map<string, Rollout>>;
  /**
   * Optional: what the cluster wrote about one service's rollout, where each hop happens (its
   * ReplicaSets' and Pods' events, PolicyReports, Pods, AnalysisRuns, HTTPRoute). Only asked for
   * a service that is not healthy; a list the source could not read is left out.
   */
  hopEvidence?(observed: ObservedApplication, service: string): Promise<ClusterEvidence>;
}

/**
 * The part of a service's hop evidence a health source reads in the cluster; the ladder adds the
 * digest, provenance, canary and soak it knows already.
 *
 * @public
 */
export type ClusterEvidence = Pick<
  HopEvidence,
  'namespace' | 'workload' | 'events' | 'policyReports' | 'pods' | 'analysisRuns' | 'routes'
>;
