import type { CanaryState } from '../argo/canaryState';
import type { HopEvidence } from './hops/hopEvidence';
import type { HopReading } from './hops/hopTypes';
import type { Promotion } from '../promotions/types';
import type { Provenance } from '../provenance/types';

/**
 * The words of `diagnose`: what the caller gathers about one service in one stage, the
 * thresholds that tell waiting from stuck, and the diagnosis given back.
 */

/** @public */
export interface DiagnosisThresholds {
  /** OutOfSync longer than this after a merge = stuck (default 300 s). */
  syncStuckSeconds: number;
  /**
   * A canary paused longer than its configured pause + this = stuck (default 600 s); an
   * indefinite pause `{}` longer than this = stuck.
   */
  canaryStuckSeconds: number;
  /** A PR waiting for approval longer than this is worth a reminder (default 86400 s). */
  approvalWaitSeconds: number;
  /** Degraded longer than this = stuck (default 0: Degraded is stuck at once). */
  degradedStuckSeconds: number;
}

/** @public */
export const DEFAULT_DIAGNOSIS_THRESHOLDS: DiagnosisThresholds = Object.freeze({
  syncStuckSeconds: 300,
  canaryStuckSeconds: 600,
  approvalWaitSeconds: 86400,
  degradedStuckSeconds: 0,
});

/** @public */
export interface DiagnosisInput {
  service: string;
  stage: string;
  /** The latest promotion into this stage for the service (a `closed` one is ignored). */
  promotion?: {
    status: Promotion['status'];
    requestedBy: string;
    pullRequestUrl?: string;
    /** The Gate's health status on the PR head (`promotions/health`). */
    healthState?: 'success' | 'pending' | 'failure';
    healthDescription?: string;
    /** ISO time when it entered this status. */
    since: string;
  };
  /** Group refs whose members may approve. */
  approvers: string[];
  /** The digest the stage's Release record on main names for the service. */
  releasedDigest?: string;
  /** ISO time of the last commit to the stage's Release file (merge time). */
  releaseChangedAt?: string;
  /** The stage's ArgoCD Application; undefined is read as "not found" (like `missing`). */
  application?: {
    name: string;
    url?: string;
    missing: boolean;
    syncStatus?: string;
    healthStatus?: string;
    healthMessage?: string;
    /** The synced git revision. */
    revision?: string;
    /** ISO time ArgoCD last compared the live state with git. */
    reconciledAt?: string;
    /** ISO time the last sync operation finished. */
    operationFinishedAt?: string;
    /** Error text when ArgoCD / the cluster could not be asked. */
    unreachable?: string;
    /** Optional: `status.operationState.phase` (`Running`, `Terminating`, `Failed`, `Error`, `Succeeded`). */
    operationPhase?: string;
    /** Optional: `status.operationState.message`. */
    operationMessage?: string;
    /** Optional: ISO time the Application's health last changed (`status.health.lastTransitionTime`). */
    healthSince?: string;
  };
  /**
   * The health rules found that ArgoCD compared the stage against a spec carrying the released
   * digest (the `revision` check). Then ArgoCD has picked the merge up, whatever the clocks say:
   * `releaseChangedAt` is when Backstage first saw the Release, which can be after ArgoCD did.
   */
  releaseApplied?: boolean;
  /** Digests of the service's images ArgoCD reports running. */
  runningDigests: string[];
  /**
   * The service's own Rollout health (live Rollout or its entry in the Application's resources).
   * When known it is read instead of the Application's aggregate health, which one failing
   * service sinks for all.
   */
  rolloutHealth?: { status: string; message?: string };
  /**
   * The health rules' verdict for this service and for its whole stage. A healthy service in a
   * stage that is not is never diagnosed from the Application's shared state: that state is about
   * the service that is actually failing or moving.
   */
  serviceHealthy?: boolean;
  stageHealthy?: boolean;
  canary?: CanaryState;
  /** `gitops/releases/<team>/<product>/<stage>.yaml` */
  releasePath: string;
  /**
   * Where the released digest came from, when `promotions.provenance` checks
   * it: a stall at admission or at the image pull then names the checked fact
   * (never pushed, unsigned, wrong signer, no provenance) instead of a guess.
   */
  provenance?: Pick<Provenance, 'state' | 'reasons'>;
  /**
   * Optional: what the cluster says at each hop (events, PolicyReports, pods, AnalysisRuns,
   * HTTPRoutes). A hop that stalled then gives the diagnosis its reason, read where it happened.
   */
  hops?: HopEvidence;
  now: Date;
}

/** @public */
export type DiagnosisState = 'ok' | 'in-progress' | 'stuck' | 'unknown';

/** @public */
export type DiagnosisCode =
  | 'healthy'
  | 'awaiting-approval'
  | 'checks-failing'
  | 'checks-pending'
  | 'merged-out-of-sync'
  | 'out-of-sync-no-change'
  | 'wrong-digest-running'
  | 'application-missing'
  | 'argocd-unreachable'
  | 'canary-soaking'
  | 'canary-stuck'
  | 'degraded'
  | 'rollout-aborted'
  | 'hop-stalled'
  | 'syncing';

/** @public */
export interface DiagnosisLink {
  label: string;
  url?: string;
}

/** @public */
export interface Diagnosis {
  state: DiagnosisState;
  /**
   * The last step of the deployment path that completed, e.g. "PR merged to main", "ArgoCD
   * synced the new Release", "Canary at 25%".
   */
  lastCompletedStep: string;
  /** The likely cause in a developer's words. */
  likelyCause: string;
  /** Where to look, most useful first. */
  whereToLook: DiagnosisLink[];
  /** Short machine id of the row of the table that matched, e.g. `awaiting-approval`. */
  code: DiagnosisCode;
  /**
   * Each hop in the cluster (registry → admission → scheduling → image pull → probes → analysis
   * window → route) with its mark, where the caller read their evidence (`DiagnosisInput.hops`):
   * the stalled one with its evidence, when it was seen and where to look.
   */
  hops?: HopReading[];
}

/**
 * The ArgoCD fix for a difference that is not there.
 *
 * @public
 */
export const SERVER_SIDE_DIFF_ANNOTATION =
  'argocd.argoproj.io/compare-options: ServerSideDiff=true';
