import { isoSeconds } from '../identifiers';
import { LiveObject, ownerRef, ref, ResourceRef } from '../liveObject';
import { ANALYSIS_STARTING_STEP, CanaryPlan, RolloutState } from '../rolloutState';
import { SLOW_ANALYSIS_MEASUREMENTS, SLOW_ANALYSIS_STEPS_PER_MEASUREMENT } from './stall';

/**
 * The background AnalysisRun of a canary whose analysis measures slowly: one
 * successful measurement every SLOW_ANALYSIS_STEPS_PER_MEASUREMENT canary steps, the pause held until all are taken
 * (Running, then Successful). Named as Argo Rollouts names a background run:
 * `<rollout>-<pod hash>-<revision>`.
 */
export function slowAnalysisRun(
  rollout: RolloutState,
  plan: CanaryPlan,
  owner: ResourceRef,
  podHash: string,
  resourceVersion: string,
): LiveObject | undefined {
  const canary = rollout.canary;
  if (rollout.stall !== 'slowAnalysis' || !canary || canary.stepIndex < ANALYSIS_STARTING_STEP)
    return undefined;
  const measuring = canary.stepIndex === ANALYSIS_STARTING_STEP;
  const taken = measuring
    ? Math.min(SLOW_ANALYSIS_MEASUREMENTS, Math.floor((canary.stepsWaited ?? 0) / SLOW_ANALYSIS_STEPS_PER_MEASUREMENT) + 1)
    : SLOW_ANALYSIS_MEASUREMENTS;
  // The first step (setWeight) takes half a step; the analysis starts with the pause after it.
  const startedAt = canary.startedAt + plan.stepMs / 2;
  const phase = measuring ? 'Running' : 'Successful';
  const runRef = ref('argoproj.io', 'v1alpha1', 'AnalysisRun', rollout.namespace, `${rollout.name}-${podHash}-${rollout.revision}`);
  const measurementMs = plan.stepMs * SLOW_ANALYSIS_STEPS_PER_MEASUREMENT;
  const interval = `${Math.max(1, Math.round(measurementMs / 1000))}s`;
  const measurements = Array.from({ length: taken }, (_, index) => {
    const at = isoSeconds(startedAt + index * measurementMs);
    return { phase: 'Successful', value: '[0.998]', startedAt: at, finishedAt: at };
  });
  const manifest = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AnalysisRun',
    metadata: {
      name: runRef.name,
      namespace: runRef.namespace,
      uid: runRef.uid,
      resourceVersion,
      creationTimestamp: isoSeconds(startedAt),
      labels: { 'rollout-type': 'Background', 'rollouts-pod-template-hash': podHash },
      annotations: { 'rollout.argoproj.io/revision': String(rollout.revision) },
      ownerReferences: [ownerRef(owner)],
    },
    spec: {
      metrics: [
        {
          name: 'success-rate',
          interval,
          count: SLOW_ANALYSIS_MEASUREMENTS,
          successCondition: 'result[0] >= 0.95',
          failureLimit: 0,
          provider: {
            prometheus: {
              address: 'http://prometheus.monitoring:9090',
              query: `sum(rate(http_requests_total{service="${rollout.name}-canary",code!~"5.."}[1m])) / sum(rate(http_requests_total{service="${rollout.name}-canary"}[1m]))`,
            },
          },
        },
      ],
    },
    status: {
      phase,
      startedAt: isoSeconds(startedAt),
      metricResults: [
        { name: 'success-rate', phase, count: taken, successful: taken, measurements },
      ],
      runSummary: { count: 1, ...(measuring ? { running: 1 } : { successful: 1 }) },
    },
  };
  return {
    ...runRef,
    resourceVersion,
    manifest,
    // Argo CD's AnalysisRun health check: Running is Progressing, Successful is Healthy.
    health: measuring ? { status: 'Progressing' } : { status: 'Healthy' },
    parentRefs: [owner],
    createdAt: isoSeconds(startedAt),
  };
}
