import { imageFor } from '../seed/digests';
import { isoSeconds, podTemplateHash } from './identifiers';
import {
  CanaryPlan,
  isPauseStep,
  progressDeadlineMs,
  RolloutState,
} from './rolloutState';
import { holdsCanary } from './stalls/stall';

export type RolloutPhase = 'Healthy' | 'Progressing' | 'Paused' | 'Degraded';

/** Pods per Rollout at full scale. */
export const ROLLOUT_REPLICAS = 4;

export const ANALYSIS_FAILURE =
  'Metric "success-rate" assessed Failed due to failed (1) > failureLimit (0)';

/** Everything observable about a Rollout at one moment, derived from its state. */
export interface RolloutView {
  phase: RolloutPhase;
  message: string;
  currentStepIndex: number;
  /** Traffic percentage on the canary (0 when none). */
  canaryWeight: number;
  stableHash: string;
  canaryHash: string;
  stablePods: number;
  canaryPods: number;
  /** Canary pods that are ready (none while a stall holds the canary). */
  canaryReadyPods: number;
  /** Set when a held canary passed its progress deadline: the Progressing condition's message. */
  timedOut?: string;
  /** Images with running pods: stable, plus the canary while one runs. */
  runningImages: string[];
  paused: boolean;
}

export function viewRollout(
  state: RolloutState,
  plan: CanaryPlan,
): RolloutView {
  const stepCount = plan.weights.length * 2;
  const stableHash = podTemplateHash(state.stableDigest);
  const canaryHash = podTemplateHash(state.desiredDigest);
  const stableImage = imageFor(state.repository, state.stableDigest);
  const canaryImage = imageFor(state.repository, state.desiredDigest);

  if (state.abortedAt !== undefined) {
    return {
      phase: 'Degraded',
      message: `RolloutAborted: Rollout aborted update to revision ${state.revision}: ${ANALYSIS_FAILURE}`,
      currentStepIndex: 0,
      canaryWeight: 0,
      stableHash,
      canaryHash,
      stablePods: ROLLOUT_REPLICAS,
      canaryPods: 0,
      canaryReadyPods: 0,
      runningImages: [stableImage],
      paused: false,
    };
  }
  if (!state.canary) {
    return {
      phase: 'Healthy',
      message: '',
      currentStepIndex: stepCount,
      canaryWeight: 0,
      stableHash,
      canaryHash: stableHash,
      stablePods: ROLLOUT_REPLICAS,
      canaryPods: 0,
      canaryReadyPods: 0,
      runningImages: [stableImage],
      paused: false,
    };
  }
  const stepIndex = state.canary.stepIndex;
  const finalising = stepIndex >= stepCount;
  const weight = finalising ? 100 : plan.weights[Math.floor(stepIndex / 2)];
  const paused = isPauseStep(plan, stepIndex);
  const canaryPods = Math.ceil((ROLLOUT_REPLICAS * weight) / 100);
  const held = holdsCanary(state.stall);
  // Argo Rollouts' wording for a ReplicaSet that did not become available in time.
  const timedOut =
    state.canary.timedOutAt !== undefined
      ? `ReplicaSet "${state.name}-${canaryHash}" has timed out progress.`
      : undefined;
  let phase: RolloutPhase = paused ? 'Paused' : 'Progressing';
  let message = paused ? 'CanaryPauseStep' : 'more replicas need to be updated';
  if (timedOut) {
    phase = 'Degraded';
    message = `ProgressDeadlineExceeded: ${timedOut}`;
  }
  return {
    phase,
    message,
    currentStepIndex: stepIndex,
    canaryWeight: weight,
    stableHash,
    canaryHash,
    // With traffic routing the stable ReplicaSet keeps full scale until the end.
    stablePods: ROLLOUT_REPLICAS,
    canaryPods,
    canaryReadyPods: held ? 0 : canaryPods,
    timedOut,
    runningImages: [stableImage, canaryImage],
    paused,
  };
}

/** How Argo CD's Rollout health check reads a v1 Rollout (phase + message). */
export function argoHealthOfRollout(view: RolloutView): {
  status: string;
  message?: string;
} {
  switch (view.phase) {
    case 'Healthy':
      return { status: 'Healthy' };
    case 'Paused':
      return { status: 'Suspended', message: view.message };
    case 'Progressing':
      return { status: 'Progressing', message: view.message };
    default:
      return { status: 'Degraded', message: view.message };
  }
}

/** The live Rollout object as the Kubernetes API (and Argo CD's /resource) would return it. */
export function rolloutManifest(
  state: RolloutState,
  plan: CanaryPlan,
  steps: unknown[],
  meta: {
    uid: string;
    resourceVersion: string;
    appName: string;
    /** The canary's running AnalysisRun, when it shows one. */
    analysisRun?: { name: string; status: string };
  },
): Record<string, unknown> {
  const view = viewRollout(state, plan);
  const since = isoSeconds(state.phaseChangedAt);
  const labels = {
    app: state.name,
    'app.kubernetes.io/instance': meta.appName,
  };
  const totalPods = view.stablePods + view.canaryPods;
  const readyPods = view.stablePods + view.canaryReadyPods;
  const status: Record<string, unknown> = {
    HPAReplicas: totalPods,
    observedGeneration: String(state.generation),
    phase: view.phase,
    message: view.message || undefined,
    currentPodHash: view.canaryHash,
    currentStepHash: podTemplateHash(`steps:${JSON.stringify(steps)}`),
    currentStepIndex: view.currentStepIndex,
    stableRS: view.stableHash,
    canary: {
      weights: {
        canary: {
          podTemplateHash: view.canaryHash,
          serviceName: `${state.name}-canary`,
          weight: view.canaryWeight,
        },
        stable: {
          podTemplateHash: view.stableHash,
          serviceName: state.name,
          weight: 100 - view.canaryWeight,
        },
      },
    },
    blueGreen: {},
    replicas: totalPods,
    updatedReplicas:
      view.phase === 'Healthy' ? ROLLOUT_REPLICAS : view.canaryPods,
    readyReplicas: readyPods,
    availableReplicas: readyPods,
    selector: `app=${state.name}`,
    conditions: rolloutConditions(view, since, state.revision, state.name),
  };
  if (meta.analysisRun) {
    // Where Argo Rollouts names the background analysis a canary runs.
    (status.canary as Record<string, unknown>).currentBackgroundAnalysisRunStatus =
      meta.analysisRun;
  }
  if (view.paused) {
    status.pauseConditions = [{ reason: 'CanaryPauseStep', startTime: since }];
    status.controllerPause = true;
  }
  if (view.phase === 'Degraded' && state.abortedAt !== undefined) {
    status.abort = true;
    status.abortedAt = isoSeconds(state.abortedAt);
  }
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: {
      name: state.name,
      namespace: state.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      generation: state.generation,
      creationTimestamp: isoSeconds(state.createdAt),
      labels,
      annotations: { 'rollout.argoproj.io/revision': String(state.revision) },
    },
    spec: {
      ...rolloutSpec(
        state.name,
        imageFor(state.repository, state.desiredDigest),
        steps,
      ),
      progressDeadlineSeconds: Math.max(
        1,
        Math.round(progressDeadlineMs(plan) / 1000),
      ),
    },
    status: JSON.parse(JSON.stringify(status)),
  };
}

/** Every service's readiness probe (the platform's admission policy requires one). */
export const READINESS_PROBE = {
  httpGet: { path: '/healthz/ready', port: 'http', scheme: 'HTTP' },
  periodSeconds: 10,
  failureThreshold: 3,
};

/** A Rollout's spec: canary with traffic routing and analysis, one container running `image`. */
export function rolloutSpec(
  name: string,
  image: string,
  steps: unknown[],
): Record<string, unknown> {
  return {
    replicas: ROLLOUT_REPLICAS,
    revisionHistoryLimit: 3,
    selector: { matchLabels: { app: name } },
    strategy: {
      canary: {
        canaryService: `${name}-canary`,
        stableService: name,
        // Seed 003: the controller sets the weights on the service's HTTPRoute, through its Gateway API plugin.
        trafficRouting: { plugins: { 'argoproj-labs/gatewayAPI': { httpRoute: name } } },
        analysis: {
          templates: [{ templateName: 'success-rate' }],
          startingStep: 1,
        },
        steps,
      },
    },
    template: {
      metadata: { labels: { app: name } },
      spec: {
        containers: [
          {
            name,
            image,
            ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
            readinessProbe: READINESS_PROBE,
          },
        ],
      },
    },
  };
}

function rolloutConditions(
  view: RolloutView,
  since: string,
  revision: number,
  name: string,
) {
  const condition = (
    type: string,
    status: string,
    reason: string,
    message: string,
  ) => ({
    lastTransitionTime: since,
    lastUpdateTime: since,
    message,
    reason,
    status,
    type,
  });
  const healthy = view.phase === 'Healthy';
  const progressingByPhase: Record<
    RolloutPhase,
    () => ReturnType<typeof condition>
  > = {
    Degraded: () =>
      view.timedOut
        ? condition('Progressing', 'False', 'ProgressDeadlineExceeded', view.timedOut)
        : condition(
            'Progressing',
            'False',
            'RolloutAborted',
            `Rollout aborted update to revision ${revision}: ${ANALYSIS_FAILURE}`,
          ),
    Paused: () =>
      condition('Progressing', 'Unknown', 'RolloutPaused', 'Rollout is paused'),
    Healthy: () =>
      condition(
        'Progressing',
        'True',
        'NewReplicaSetAvailable',
        `Rollout "${name}" has successfully progressed.`,
      ),
    Progressing: () =>
      condition(
        'Progressing',
        'True',
        'ReplicaSetUpdated',
        `Updated ReplicaSet "${name}-${view.canaryHash}" is progressing.`,
      ),
  };
  const progressing = progressingByPhase[view.phase]();
  const conditions = [
    condition(
      'Available',
      'True',
      'AvailableReason',
      'Rollout has minimum availability',
    ),
    progressing,
    condition(
      'Healthy',
      healthy ? 'True' : 'False',
      'RolloutHealthy',
      healthy ? 'Rollout is healthy' : 'Rollout is not healthy',
    ),
    condition(
      'Completed',
      healthy ? 'True' : 'False',
      'RolloutCompleted',
      healthy ? 'Rollout is Completed' : 'RolloutCompleted',
    ),
  ];
  if (view.paused)
    conditions.push(
      condition('Paused', 'True', 'RolloutPaused', 'Rollout is paused'),
    );
  return conditions;
}
