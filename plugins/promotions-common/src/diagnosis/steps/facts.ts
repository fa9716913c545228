import type { CanaryState } from '../../argo/canaryState';
import { argoTimeMillis } from '../../argo/time';
import {
  gitComparison,
  hasCanarySteps,
  runsDigest,
} from '../../health/argoFacts';
import { shortDigestText } from '../../health/format';
import type { HopReading } from '../hops/hopTypes';
import type {
  Diagnosis,
  DiagnosisInput,
  DiagnosisLink,
  DiagnosisThresholds,
} from '../diagnosisTypes';

/**
 * One hop of the deployment path: the diagnosis when the deployment stalled at it, or undefined
 * when the hop completed and the next one is to be read.
 */
export type DiagnosisStep<Facts> = (facts: Facts) => Diagnosis | undefined;

/** The first hop, in order, that did not complete. */
export function firstStall<Facts>(
  steps: ReadonlyArray<DiagnosisStep<Facts>>,
  facts: Facts,
): Diagnosis | undefined {
  for (const step of steps) {
    const stall = step(facts);
    if (stall) return stall;
  }
  return undefined;
}

/** What every hop can read: the input, the thresholds and when the Release on main changed. */
export interface StageFacts {
  input: DiagnosisInput;
  thresholds: DiagnosisThresholds;
  /** The promotion PR as a place to look; none without its URL. */
  prLink: DiagnosisLink[];
  /** The stage's ArgoCD Application as a place to look; none without its URL. */
  appLink: DiagnosisLink[];
  /** The latest promotion into the stage has merged. */
  merged: boolean;
  /** When the Release on main last changed: the commit time, else the promotion's merge time. */
  mergeAt?: string;
  sinceMerge?: number;
  /** Each hop's reading (`diagnoseHops`), where the caller read their evidence. */
  hops?: HopReading[];
}

/** The hops past the Release on main read the digest it names. */
export interface ReleaseFacts extends StageFacts {
  released: string;
  /** The last hop the git side completed: the merge, else the Release naming the digest. */
  mergedStep: string;
}

/** The hops past ArgoCD's Application read it, and what the service runs. */
export interface DeploymentFacts extends ReleaseFacts {
  application: NonNullable<DiagnosisInput['application']>;
  appName: string;
  /** The stage's namespace: each stage's Application is named after it (`alpha-shop-test`). */
  namespace: string;
  runningReleased: boolean;
  /** When the Release changed, cut to the whole second, as ArgoCD's own times are. */
  mergeMs?: number;
  reconciledMs?: number;
  /** A sync operation finished after the Release changed. */
  syncedAfterMerge: boolean;
  /**
   * OutOfSync well after a merge whose Release is already live: not about the Release at all,
   * but a difference ArgoCD keeps seeing. Said only when nothing worse is going on.
   */
  outOfSyncWithoutChange: boolean;
  /** The service's own health where its Rollout's is known; the Application's otherwise. */
  healthStatus?: string;
  healthMessage?: string;
  /** Whose health `healthStatus` is: the Rollout's or the Application's. */
  healthOf: string;
  /** Where a canary with steps stands (`canaryStepText`). */
  canaryStep?: string;
  rolloutLook: DiagnosisLink[];
}

/** The last hop completed once ArgoCD has synced the Release; the Rollout's hops follow. */
export const SYNCED_STEP = 'ArgoCD synced the new Release';

/** Where a canary with steps stands, e.g. "Canary at 25% (step 1 of 4)". */
export function canaryStepText(canary: CanaryState): string {
  return `Canary at ${canary.weight}% (step ${canary.currentStep} of ${canary.totalSteps})`;
}

/** Whole seconds from `iso` to `now` (never negative), or undefined. */
export function secondsSince(
  iso: string | undefined,
  now: Date,
): number | undefined {
  const ms = argoTimeMillis(iso);
  if (ms === undefined) return undefined;
  return Math.max(0, Math.floor((now.getTime() - ms) / 1000));
}

function wholeSecond(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.floor(ms / 1000) * 1000;
}

export function readStageFacts(
  input: DiagnosisInput,
  thresholds: DiagnosisThresholds,
  hops?: HopReading[],
): StageFacts {
  const { promotion, application } = input;
  const merged = promotion?.status === 'merged';
  const mergeAt =
    input.releaseChangedAt ?? (merged ? promotion?.since : undefined);
  return {
    input,
    thresholds,
    prLink: promotion?.pullRequestUrl
      ? [{ label: 'The promotion pull request', url: promotion.pullRequestUrl }]
      : [],
    appLink: application?.url
      ? [
          {
            label: `ArgoCD Application ${application.name}`,
            url: application.url,
          },
        ]
      : [],
    merged,
    mergeAt,
    sinceMerge: secondsSince(mergeAt, input.now),
    hops,
  };
}

/** Undefined when the Release on main names no digest for the service. */
export function readReleaseFacts(stage: StageFacts): ReleaseFacts | undefined {
  const released = stage.input.releasedDigest;
  if (!released) return undefined;
  return {
    ...stage,
    released,
    mergedStep: stage.merged
      ? 'PR merged to main'
      : `Release on main names ${shortDigestText(released)}`,
  };
}

/** Undefined when the stage has no Application (not generated, or not found). */
export function readDeploymentFacts(
  release: ReleaseFacts,
): DeploymentFacts | undefined {
  const { input, released, mergeAt, sinceMerge, thresholds } = release;
  const { application, canary, rolloutHealth, service } = input;
  if (!application || application.missing) return undefined;

  const runningReleased = runsDigest(input.runningDigests, released);
  const finishedMs = argoTimeMillis(application.operationFinishedAt);
  // ArgoCD's times have whole seconds: a sync in the merge's own second is after it.
  const mergeMs = wholeSecond(argoTimeMillis(mergeAt));
  const syncedAfterMerge =
    finishedMs !== undefined && mergeMs !== undefined && finishedMs >= mergeMs;
  // The Release on main is already live when the service runs its digest, or a sync finished
  // after the Release changed; then a lasting OutOfSync is not about the Release at all.
  const releaseLive = runningReleased || syncedAfterMerge;
  const settledSinceMerge =
    sinceMerge === undefined || sinceMerge > thresholds.syncStuckSeconds;
  const ownHealth = rolloutHealth ?? {
    status: application.healthStatus,
    message: application.healthMessage,
  };
  return {
    ...release,
    application,
    appName: application.name,
    namespace: application.name,
    runningReleased,
    mergeMs,
    reconciledMs: argoTimeMillis(application.reconciledAt),
    syncedAfterMerge,
    outOfSyncWithoutChange:
      gitComparison(application.syncStatus) === 'out-of-sync' &&
      releaseLive &&
      settledSinceMerge,
    healthStatus: ownHealth.status,
    healthMessage: ownHealth.message,
    healthOf: rolloutHealth ? `Rollout ${service}` : application.name,
    canaryStep: hasCanarySteps(canary) ? canaryStepText(canary) : undefined,
    rolloutLook: [
      {
        label: `kubectl argo rollouts get rollout ${service} -n ${application.name}`,
      },
    ],
  };
}
