import type { CanaryState } from '../../argo/canaryState';
import type { Provenance } from '../../provenance/types';

/**
 * What the cluster says about one service's rollout, in the shapes Kubernetes, Kyverno, Argo
 * Rollouts and the Gateway API write it: only the fields the hop rules read. Times are ISO
 * strings as the APIs send them.
 */

/** @public */
export interface KubeObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  /** For a container's events: `spec.containers{storefront}`. */
  fieldPath?: string;
}

/**
 * A core/v1 Event as ArgoCD's ListResourceEvents returns it (`eventsEvent`).
 *
 * @public
 */
export interface KubeEvent {
  metadata?: { name?: string; namespace?: string };
  involvedObject: KubeObjectReference;
  reason?: string;
  message?: string;
  /** `Normal` or `Warning`. */
  type?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
}

/**
 * One entry of a Kyverno PolicyReport (`wgpolicyk8s.io/v1alpha2`, `results[]`).
 *
 * @public
 */
export interface PolicyReportResult {
  policy?: string;
  rule?: string;
  /** `pass`, `fail`, `warn`, `error` or `skip`. */
  result?: string;
  message?: string;
  /** The resources the result is about (older reports; newer ones name the `scope`). */
  resources?: KubeObjectReference[];
  timestamp?: { seconds?: number; nanos?: number };
}

/** @public */
export interface PolicyReport {
  metadata?: { name?: string; namespace?: string };
  /** The one resource the report is about (Kyverno 1.12+). */
  scope?: KubeObjectReference;
  results?: PolicyReportResult[];
}

/**
 * A core/v1 ContainerStatus.
 *
 * @public
 */
export interface KubeContainerStatus {
  name: string;
  image?: string;
  imageID?: string;
  ready?: boolean;
  restartCount?: number;
  state?: {
    waiting?: { reason?: string; message?: string };
    running?: { startedAt?: string };
    terminated?: ContainerTerminated;
  };
  /** The previous run, where a container restarted. */
  lastState?: { terminated?: ContainerTerminated };
}

/** @public */
export interface ContainerTerminated {
  reason?: string;
  exitCode?: number;
  finishedAt?: string;
}

/** @public */
export interface KubePod {
  metadata: { name: string; namespace?: string };
  status?: {
    phase?: string;
    containerStatuses?: KubeContainerStatus[];
  };
}

/**
 * An Argo Rollouts AnalysisRun (`argoproj.io/v1alpha1`).
 *
 * @public
 */
export interface AnalysisRunMetricSpec {
  name: string;
  /** How many measurements the metric takes; none = until the run is stopped. */
  count?: number | string;
  interval?: string;
  failureLimit?: number | string;
}

/** @public */
export interface AnalysisRunMeasurement {
  phase?: string;
  value?: string;
  startedAt?: string;
  finishedAt?: string;
}

/** @public */
export interface AnalysisRunMetricResult {
  name: string;
  phase?: string;
  /** Measurements taken so far. */
  count?: number;
  failed?: number;
  successful?: number;
  inconclusive?: number;
  error?: number;
  message?: string;
  measurements?: AnalysisRunMeasurement[];
}

/** @public */
export interface AnalysisRun {
  metadata?: { name?: string; namespace?: string; creationTimestamp?: string };
  spec?: {
    metrics?: AnalysisRunMetricSpec[];
    /** Older AnalysisRuns nest the metrics here. */
    analysisSpec?: { metrics?: AnalysisRunMetricSpec[] };
  };
  status?: {
    /** `Pending`, `Running`, `Successful`, `Failed`, `Error`, `Inconclusive`. */
    phase?: string;
    message?: string;
    startedAt?: string;
    metricResults?: AnalysisRunMetricResult[];
  };
}

/**
 * A Gateway API condition (`metav1.Condition`).
 *
 * @public
 */
export interface KubeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** @public */
export interface HTTPRoute {
  metadata: { name: string; namespace?: string };
  spec?: {
    hostnames?: string[];
    rules?: Array<{
      backendRefs?: Array<{ group?: string; kind?: string; name: string; namespace?: string }>;
    }>;
  };
  status?: {
    parents?: Array<{
      parentRef: { name: string; namespace?: string; kind?: string; sectionName?: string };
      controllerName?: string;
      conditions?: KubeCondition[];
    }>;
  };
}

/**
 * Everything the hop rules read about one service in one stage. Each list may be missing: a
 * hop without its evidence is `unknown`, never `completed`.
 *
 * @public
 */
export interface HopEvidence {
  /** The stage's namespace, e.g. `alpha-shop-test`. */
  namespace: string;
  /** The service's Rollout; its ReplicaSets and Pods are named after it. */
  workload: string;
  /** The released digest the pods should pull. */
  digest?: string;
  /** Events of the workload's ReplicaSets and Pods. */
  events?: KubeEvent[];
  policyReports?: PolicyReport[];
  pods?: KubePod[];
  /** The AnalysisRuns of the Rollout's current revision. */
  analysisRuns?: AnalysisRun[];
  /** The HTTPRoutes that carry the workload's traffic (`routesOfRollout`). */
  routes?: HTTPRoute[];
  /** The registry check of the digest. */
  provenance?: Pick<Provenance, 'state' | 'reasons'>;
  /** Where the canary stands: how long its pause still runs. */
  canary?: CanaryState;
  /** Seconds the stage's soak still runs for the digest (`soakRemaining`). */
  soakRemainingSeconds?: number;
}
