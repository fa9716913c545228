/**
 * Minimal shapes of the Argo CD and Argo Rollouts objects the promotion rules read.
 *
 * Every field is optional: the Argo CD API omits empty fields, older controllers wrote other
 * shapes, and objects parsed from YAML carry `Date` objects where JSON carries strings.
 * Only the fields the rules use are named; the index signatures keep the rest.
 */

/**
 * A Kubernetes time: an RFC 3339 string (JSON) or a `Date` (YAML parses unquoted timestamps).
 *
 * @public
 */
export type ArgoTime = string | Date;

/** @public */
export interface ArgoObjectMeta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  generation?: number;
  /** Changes whenever the object is written (spec or status). */
  resourceVersion?: string;
  creationTimestamp?: ArgoTime;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Argo CD Application (argoproj.io/v1alpha1)
// ---------------------------------------------------------------------------------------------

/**
 * `name=value` passed to `helm template --set`; an ApplicationSet may inject a digest here.
 *
 * @public
 */
export interface HelmParameter {
  name?: string;
  value?: string;
  forceString?: boolean;
}

/** @public */
export interface ApplicationSource {
  repoURL?: string;
  path?: string;
  targetRevision?: string;
  chart?: string;
  ref?: string;
  name?: string;
  /** Kustomize options; `images` are override strings (`[old=]new[:tag][@digest]`). */
  kustomize?: { images?: string[]; [key: string]: unknown };
  helm?: {
    parameters?: HelmParameter[];
    releaseName?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** @public */
export interface ApplicationDestination {
  server?: string;
  name?: string;
  namespace?: string;
}

/**
 * `Synced`, `OutOfSync` or `Unknown`.
 *
 * @public
 */
export type ApplicationSyncStatusCode =
  'Synced' | 'OutOfSync' | 'Unknown' | (string & {});

/**
 * Argo CD health codes; Application health is the worst resource health.
 *
 * @public
 */
export type ArgoHealthStatusCode =
  | 'Healthy'
  | 'Progressing'
  | 'Suspended'
  | 'Degraded'
  | 'Missing'
  | 'Unknown'
  | (string & {});

/**
 * `Running`, `Terminating`, `Failed`, `Error`, `Succeeded`.
 *
 * @public
 */
export type OperationPhase =
  'Running' | 'Terminating' | 'Failed' | 'Error' | 'Succeeded' | (string & {});

/** @public */
export interface ArgoHealthStatus {
  status?: ArgoHealthStatusCode;
  message?: string;
  lastTransitionTime?: ArgoTime;
}

/** @public */
export interface ApplicationSyncStatus {
  status?: ApplicationSyncStatusCode;
  /** The git revision (commit SHA) the live state was compared to; single-source apps. */
  revision?: string;
  /** One revision per source, for multi-source apps (`spec.sources`). */
  revisions?: string[];
  comparedTo?: {
    source?: ApplicationSource;
    sources?: ApplicationSource[];
    destination?: ApplicationDestination;
    [key: string]: unknown;
  };
}

/** @public */
export interface SyncOperationResult {
  revision?: string;
  revisions?: string[];
  source?: ApplicationSource;
  sources?: ApplicationSource[];
  [key: string]: unknown;
}

/** @public */
export interface ApplicationOperationState {
  phase?: OperationPhase;
  message?: string;
  startedAt?: ArgoTime;
  finishedAt?: ArgoTime;
  retryCount?: number;
  syncResult?: SyncOperationResult;
  [key: string]: unknown;
}

/**
 * One entry of `status.resources` (swagger: `applicationv1alpha1ResourceStatus`).
 *
 * @public
 */
export interface ApplicationResourceStatus {
  group?: string;
  version?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  /** Sync status of this resource: `Synced`, `OutOfSync`, `Unknown`. */
  status?: ApplicationSyncStatusCode;
  /** Absent when `status.resourceHealthSource` is `appTree` (read the resource tree instead). */
  health?: ArgoHealthStatus;
  hook?: boolean;
  requiresPruning?: boolean;
  syncWave?: number;
}

/** @public */
export interface ApplicationRevisionHistory {
  id?: number;
  revision?: string;
  revisions?: string[];
  deployedAt?: ArgoTime;
  deployStartedAt?: ArgoTime;
  source?: ApplicationSource;
  sources?: ApplicationSource[];
  [key: string]: unknown;
}

/** @public */
export interface ApplicationStatus {
  sync?: ApplicationSyncStatus;
  health?: ArgoHealthStatus;
  /** When the controller last compared live state with git. */
  reconciledAt?: ArgoTime;
  operationState?: ApplicationOperationState;
  summary?: {
    images?: string[];
    externalURLs?: string[];
    [key: string]: unknown;
  };
  resources?: ApplicationResourceStatus[];
  /** `appTree` means per-resource health is not inline in `resources`. */
  resourceHealthSource?: 'appTree' | (string & {});
  history?: ApplicationRevisionHistory[];
  conditions?: Array<{
    type?: string;
    message?: string;
    lastTransitionTime?: ArgoTime;
  }>;
  [key: string]: unknown;
}

/** @public */
export interface Application {
  apiVersion?: string;
  kind?: string;
  metadata?: ArgoObjectMeta;
  spec?: {
    project?: string;
    source?: ApplicationSource;
    sources?: ApplicationSource[];
    destination?: ApplicationDestination;
    [key: string]: unknown;
  };
  status?: ApplicationStatus;
}

/**
 * One live resource of an Application's resource tree
 * (`GET /api/v1/applications/{name}/resource-tree`, swagger `v1alpha1ResourceNode`). From Argo CD
 * 3.0 this is the only place per-resource health is kept.
 *
 * @public
 */
export interface ResourceNode {
  group?: string;
  version?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  health?: ArgoHealthStatus;
  [key: string]: unknown;
}

/**
 * The answer of the resource-tree route (swagger `v1alpha1ApplicationTree`).
 *
 * @public
 */
export interface ApplicationTree {
  nodes?: ResourceNode[] | null;
  orphanedNodes?: ResourceNode[] | null;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Argo Rollouts Rollout (argoproj.io/v1alpha1)
// ---------------------------------------------------------------------------------------------

/**
 * A pause duration: a number of seconds, or a string such as `30s`, `5m`, `1h`, `1h30m`.
 *
 * @public
 */
export type RolloutDuration = number | string;

/** @public */
export interface RolloutCanaryStep {
  setWeight?: number;
  pause?: { duration?: RolloutDuration };
  analysis?: Record<string, unknown>;
  experiment?: Record<string, unknown>;
  setCanaryScale?: Record<string, unknown>;
  setHeaderRoute?: Record<string, unknown>;
  setMirrorRoute?: Record<string, unknown>;
  plugin?: Record<string, unknown>;
  [key: string]: unknown;
}

/** @public */
export interface RolloutContainer {
  name?: string;
  image?: string;
  [key: string]: unknown;
}

/** @public */
export interface RolloutSpec {
  replicas?: number;
  paused?: boolean;
  workloadRef?: { apiVersion?: string; kind?: string; name?: string };
  strategy?: {
    canary?: {
      steps?: RolloutCanaryStep[];
      trafficRouting?: Record<string, unknown>;
      analysis?: Record<string, unknown>;
      canaryService?: string;
      stableService?: string;
      [key: string]: unknown;
    };
    blueGreen?: Record<string, unknown>;
  };
  template?: {
    metadata?: ArgoObjectMeta;
    spec?: { containers?: RolloutContainer[]; [key: string]: unknown };
  };
  [key: string]: unknown;
}

/** @public */
export interface RolloutCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: ArgoTime;
  lastUpdateTime?: ArgoTime;
}

/** @public */
export interface RolloutPauseCondition {
  /** `CanaryPauseStep`, `InconclusiveAnalysisRun`, `InconclusiveExperiment`, `BlueGreenPause`. */
  reason?: string;
  startTime?: ArgoTime;
}

/** @public */
export interface RolloutTrafficWeight {
  weight?: number;
  podTemplateHash?: string;
  serviceName?: string;
}

/** @public */
export interface RolloutAnalysisRunStatus {
  name?: string;
  status?: string;
  message?: string;
}

/**
 * Rollouts v1.0+ writes a phase; older controllers do not.
 *
 * @public
 */
export type RolloutPhase =
  'Healthy' | 'Progressing' | 'Paused' | 'Degraded' | (string & {});

/** @public */
export interface RolloutStatus {
  phase?: RolloutPhase;
  message?: string;
  /**
   * A number-like string (`"5"`) since v0.10, a pod-template hash string (`"6df79499bc"`) in
   * v0.9 and older; a plain number when a YAML file was written by hand.
   */
  observedGeneration?: string | number;
  workloadObservedGeneration?: string | number;
  currentStepIndex?: number;
  currentPodHash?: string;
  currentStepHash?: string;
  /** v0.8+. Older controllers wrote `status.canary.stableRS`. */
  stableRS?: string;
  canary?: {
    stableRS?: string;
    weights?: {
      canary?: RolloutTrafficWeight;
      stable?: RolloutTrafficWeight;
      additional?: RolloutTrafficWeight[];
    };
    currentBackgroundAnalysisRunStatus?: RolloutAnalysisRunStatus;
    currentStepAnalysisRunStatus?: RolloutAnalysisRunStatus;
    currentExperiment?: string;
    [key: string]: unknown;
  };
  blueGreen?: {
    activeSelector?: string;
    previewSelector?: string;
    [key: string]: unknown;
  };
  pauseConditions?: RolloutPauseCondition[];
  controllerPause?: boolean;
  abort?: boolean;
  abortedAt?: ArgoTime;
  /** A list; one real fixture has `{}` instead, which must be tolerated. */
  conditions?: RolloutCondition[] | Record<string, never>;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  [key: string]: unknown;
}

/** @public */
export interface Rollout {
  apiVersion?: string;
  kind?: string;
  metadata?: ArgoObjectMeta;
  spec?: RolloutSpec;
  status?: RolloutStatus;
}
