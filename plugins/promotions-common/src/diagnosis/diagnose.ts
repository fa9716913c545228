import {
  DEFAULT_DIAGNOSIS_THRESHOLDS,
  Diagnosis,
  DiagnosisInput,
  DiagnosisThresholds,
} from './diagnosisTypes';
import { diagnoseHops } from './hops/diagnoseHops';
import { applicationNotGenerated } from './steps/applicationNotGenerated';
import { argocdUnreachable } from './steps/argocdUnreachable';
import { canaryInProgress } from './steps/canaryInProgress';
import { degraded } from './steps/degraded';
import {
  DeploymentFacts,
  DiagnosisStep,
  firstStall,
  readDeploymentFacts,
  readReleaseFacts,
  readStageFacts,
  ReleaseFacts,
  StageFacts,
} from './steps/facts';
import { healthUnknown } from './steps/healthUnknown';
import { mergeMaybeNotPickedUp, mergeNotPickedUp } from './steps/mergeNotPickedUp';
import { nothingReleased } from './steps/nothingReleased';
import { notInSyncWithGit } from './steps/notInSyncWithGit';
import { outOfSyncWithoutChange } from './steps/outOfSyncWithoutChange';
import { podsStarting } from './steps/podsStarting';
import { promotionPullRequest } from './steps/promotionPullRequest';
import { rolloutAborted } from './steps/rolloutAborted';
import { rolloutSuspended } from './steps/rolloutSuspended';
import { serving } from './steps/serving';
import { stalledHop } from './steps/stalledHop';
import { servingWhileStageIsNot } from './steps/servingWhileStageIsNot';
import { syncFailed } from './steps/syncFailed';
import { syncRunning } from './steps/syncRunning';
import { wrongDigestRunning } from './steps/wrongDigestRunning';

export * from './diagnosisTypes';

/**
 * "Why is my deployment not there yet?" — reads where a deployment stands on its path
 * (PR → checks → approval → merge → ArgoCD sync → admission → Rollout canary → serving) and
 * names the last step that completed, the likely cause of the stall and where to look.
 *
 * Pure: the caller gathers the promotion, the Release on main, the Application's status and the
 * canary state; this only reads them. Seed 000 ("Reading a stalled rollout"): find the last
 * message that completed, and the failure is almost always in the next hop. So each hop is a
 * small diagnoser, asked in the order of the path, and the first that did not complete answers.
 */

/** The hops between the Release on main and the Application: is there one to read? */
const BEFORE_THE_APPLICATION: ReadonlyArray<DiagnosisStep<ReleaseFacts>> = [
  servingWhileStageIsNot,
  argocdUnreachable,
];

/**
 * The hops ArgoCD and Argo Rollouts take, worst stall first where two hold at once (a Degraded
 * canary that is also OutOfSync is Degraded).
 */
const ON_THE_APPLICATION: ReadonlyArray<DiagnosisStep<DeploymentFacts>> = [
  syncRunning,
  syncFailed,
  notInSyncWithGit,
  mergeNotPickedUp,
  // Synced: the hops in the cluster (admission, scheduling, pull, probes, analysis, route), where
  // their evidence was read, say what the Rollout's health can only summarise.
  stalledHop,
  rolloutAborted,
  degraded,
  canaryInProgress,
  rolloutSuspended,
  podsStarting,
  mergeMaybeNotPickedUp,
  wrongDigestRunning,
  healthUnknown,
  outOfSyncWithoutChange,
];

/** A threshold that is not a number of seconds falls back to its default. */
function seconds(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? value
    : fallback;
}

function withDefaults(
  thresholds: Partial<DiagnosisThresholds> | undefined,
): DiagnosisThresholds {
  const t = DEFAULT_DIAGNOSIS_THRESHOLDS;
  return {
    syncStuckSeconds: seconds(thresholds?.syncStuckSeconds, t.syncStuckSeconds),
    canaryStuckSeconds: seconds(
      thresholds?.canaryStuckSeconds,
      t.canaryStuckSeconds,
    ),
    approvalWaitSeconds: seconds(
      thresholds?.approvalWaitSeconds,
      t.approvalWaitSeconds,
    ),
    degradedStuckSeconds: seconds(
      thresholds?.degradedStuckSeconds,
      t.degradedStuckSeconds,
    ),
  };
}

/**
 * Reads where the deployment of `service` into `stage` stands, from the first stall on its path.
 *
 * Order: a live promotion PR (checks, approval) → the Release on main → the Application (reachable,
 * generated, syncing, in sync) → the Rollout (aborted, Degraded, canary paused) → the running
 * digest → healthy.
 *
 * @public
 */
export function diagnose(
  input: DiagnosisInput,
  thresholds?: Partial<DiagnosisThresholds>,
): Diagnosis {
  const hops = input.hops && diagnoseHops(input.hops);
  const diagnosis = firstStallOnThePath(readStageFacts(input, withDefaults(thresholds), hops));
  return hops ? { ...diagnosis, hops } : diagnosis;
}

function firstStallOnThePath(stage: StageFacts): Diagnosis {
  const pullRequest = promotionPullRequest(stage);
  if (pullRequest) return pullRequest;
  // Reading the Release and the Application is itself a hop: where either is missing, the
  // path stops there.
  const release = readReleaseFacts(stage);
  if (!release) return nothingReleased(stage);
  const beforeApplication = firstStall(BEFORE_THE_APPLICATION, release);
  if (beforeApplication) return beforeApplication;
  const deployment = readDeploymentFacts(release);
  if (!deployment) return applicationNotGenerated(release);
  return firstStall(ON_THE_APPLICATION, deployment) ?? serving(deployment);
}
