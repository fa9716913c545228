import type { CanaryState } from '../argo/canaryState';
import type { GitRepoRef } from '../argo/repoUrl';
import type { RolloutHealth } from '../argo/rolloutHealth';
import type { ImageNaming } from '../argo/serviceImages';
import type { Application, Rollout } from '../argo/types';
import type { HealthVerdict } from './verdict';

/**
 * The words of `evaluateServiceHealth`: what the caller gathers about one service in one stage,
 * and the checks and verdict it gives back.
 */

/** @public */
export type ServiceHealthCheckId =
  | 'application'
  | 'sync'
  | 'revision'
  | 'reconciled'
  | 'app-health'
  | 'rollout'
  | 'image';

/** @public */
export interface ServiceHealthCheck {
  id: ServiceHealthCheckId;
  /** true: holds; false: does not hold; undefined: could not be told (or not checked). */
  ok: boolean | undefined;
  detail: string;
  /** What this check alone says (`healthy` when ok). */
  verdict: HealthVerdict;
}

/** @public */
export interface ServiceHealthInput {
  /** The digest the stage's Release record names for the service (undefined = not released). */
  releasedDigest?: string;
  /** The stage's Argo CD Application (undefined = not found). */
  application?: Application;
  /** Set when Argo CD / the cluster could not be asked (unreachable, auth, 5xx). */
  applicationLookupError?: string;
  /** The platform repo (`promotions.platformRepo`): tells platform-repo sources from app-repo ones. */
  platformRepo: GitRepoRef;
  /**
   * Computed by the caller for the Application's platform-repo revisions only
   * (`platformRepoRevisions`): does the revision's Release name this service's current digest
   * (commits that changed only other services do not concern it)? Missing or undefined: could not
   * be read.
   */
  platformRevisionCarriesRelease?: Readonly<
    Record<string, boolean | undefined>
  >;
  /** The live Rollout, when the caller fetched it; else `status.resources` health is used. */
  rollout?: Rollout;
  /** The Application name, for messages when the Application is missing (`alpha-shop-test`). */
  applicationName?: string;
  /**
   * The Product, which names its Services' images (`promotions.images`). An image carrying the
   * released digest is the Service's whatever its name; names tell what runs instead.
   */
  product?: { team: string; product: string };
  imageNaming?: ImageNaming;
  now: Date;
}

/** @public */
export interface ServiceHealth {
  verdict: HealthVerdict;
  /** `verdict === 'healthy'`. */
  healthy: boolean;
  /** Every check that does not hold, in words a developer understands. */
  reasons: string[];
  /** All seven checks, in a fixed order. */
  checks: ServiceHealthCheck[];
  /** Digests of this service's images in `status.summary.images`. */
  runningDigests: string[];
  /** When a live Rollout was given. */
  canary?: CanaryState;
  /** The Rollout's Argo CD health, from the live Rollout or from `status.resources`. */
  rolloutHealth?: RolloutHealth;
}
