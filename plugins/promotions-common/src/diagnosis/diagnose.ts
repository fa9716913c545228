import { CanaryState, formatSeconds } from '../argo/canaryState';
import { shortDigest } from '../names';
import { actorNameWithoutCatalog } from '../people/actorNames';
import { isLivePromotion } from '../promotions/livePromotion';
import type { Promotion } from '../promotions/types';

/**
 * "Why is my deployment not there yet?" — reads where a deployment stands on its path
 * (PR → checks → approval → merge → ArgoCD sync → admission → Rollout canary → serving) and
 * names the last step that completed, the likely cause of the stall and where to look.
 *
 * Pure: the caller gathers the promotion, the Release on main, the Application's status and the
 * canary state; this only reads them. Find the last step that completed: the failure is almost
 * always in the next hop.
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
}

/**
 * The ArgoCD fix for a difference that is not there.
 *
 * @public
 */
export const SERVER_SIDE_DIFF_ANNOTATION =
  'argocd.argoproj.io/compare-options: ServerSideDiff=true';

// ---------------------------------------------------------------------------------------------

function millis(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}

function wholeSecond(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.floor(ms / 1000) * 1000;
}

/** Whole seconds from `iso` to `now` (never negative), or undefined. */
function secondsSince(iso: string | undefined, now: Date): number | undefined {
  const ms = millis(iso);
  if (ms === undefined) return undefined;
  return Math.max(0, Math.floor((now.getTime() - ms) / 1000));
}

function short(digest: string): string {
  const s = shortDigest(digest);
  return s.length < digest.length ? `${s}…` : s;
}

function sameDigest(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? value
    : fallback;
}

const ADMISSION_PATTERN =
  /admission webhook|denied the request|kyverno|policy|signature|attestation/i;

const ARGOCD_UNREACHABLE_LOOK: DiagnosisLink[] = [
  {
    label:
      'The ArgoCD instance and its API (is it up, and reachable from Backstage?)',
  },
  { label: "The promotions backend's ArgoCD credentials and its logs" },
];

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
  const t: DiagnosisThresholds = {
    syncStuckSeconds: positive(
      thresholds?.syncStuckSeconds,
      DEFAULT_DIAGNOSIS_THRESHOLDS.syncStuckSeconds,
    ),
    canaryStuckSeconds: positive(
      thresholds?.canaryStuckSeconds,
      DEFAULT_DIAGNOSIS_THRESHOLDS.canaryStuckSeconds,
    ),
    approvalWaitSeconds: positive(
      thresholds?.approvalWaitSeconds,
      DEFAULT_DIAGNOSIS_THRESHOLDS.approvalWaitSeconds,
    ),
    degradedStuckSeconds: positive(
      thresholds?.degradedStuckSeconds,
      DEFAULT_DIAGNOSIS_THRESHOLDS.degradedStuckSeconds,
    ),
  };
  const { service, stage, promotion, now } = input;
  const prLink: DiagnosisLink[] = promotion?.pullRequestUrl
    ? [{ label: 'The promotion pull request', url: promotion.pullRequestUrl }]
    : [];

  // 1. A promotion PR that has not merged yet, or whose opening failed: the stall is on the git side.
  if (promotion && (isLivePromotion(promotion.status) || promotion.status === 'failed')) {
    return diagnosePullRequest(input, t, prLink);
  }

  const app = input.application;
  const appLink = appLinkOf(app);
  const appName = app?.name ?? 'the Application';
  const released = input.releasedDigest;
  const merged = promotion?.status === 'merged';
  // When the Release on main last changed: the commit time, else the promotion's merge time.
  const mergeAt =
    input.releaseChangedAt ?? (merged ? promotion?.since : undefined);
  const sinceMerge = secondsSince(mergeAt, now);

  // 2. Nothing released: nothing to deploy, nothing can be stuck.
  if (!released) {
    return {
      state: 'ok',
      code: 'healthy',
      lastCompletedStep: `Nothing released to ${stage}`,
      likelyCause: `${service} is not released to ${stage}: its Release record names no digest for it, so there is nothing to deploy. Promote it from the stage below.`,
      whereToLook: [
        ...prLink,
        { label: `The Release file ${input.releasePath}` },
      ],
    };
  }

  const mergedStep = merged
    ? 'PR merged to main'
    : `Release on main names ${short(released)}`;

  // 2b. Healthy by its own resources while another service of the stage is not.
  if (input.serviceHealthy && input.stageHealthy === false) {
    return {
      state: 'ok',
      code: 'healthy',
      lastCompletedStep: `Serving ${short(released)}`,
      likelyCause: `Nothing is stuck for ${service} in ${stage}: its Rollout is Healthy and runs the released ${short(released)}. The Application's state reflects another service of ${stage}.`,
      whereToLook: [...appLinkOf(input.application), ...prLink],
    };
  }

  // 3. Could ArgoCD be asked at all?
  if (app?.unreachable !== undefined) {
    return {
      state: 'unknown',
      code: 'argocd-unreachable',
      lastCompletedStep: mergedStep,
      likelyCause: `ArgoCD (or the cluster) could not be asked, so nothing can be said about the deployment yet: ${app.unreachable}`,
      whereToLook: [...appLink, ...ARGOCD_UNREACHABLE_LOOK, ...prLink],
    };
  }

  // 4. Has the ApplicationSet generated the stage's Application?
  if (!app || app.missing) {
    const fresh = sinceMerge !== undefined && sinceMerge <= t.syncStuckSeconds;
    const name = app?.name
      ? `Application ${app.name}`
      : "the stage's Application";
    return {
      state: fresh ? 'in-progress' : 'stuck',
      code: 'application-missing',
      lastCompletedStep: mergedStep,
      likelyCause: fresh
        ? `The ApplicationSet has not generated ${name} yet (the Release changed ${formatSeconds(sinceMerge!)} ago; its git generator polls every few minutes). If it does not appear, check the Release path \`${input.releasePath}\` matches the generator's files pattern and that the Environment exists.`
        : `The ApplicationSet has not generated ${name}: check the Release path \`${input.releasePath}\` matches the generator's files pattern and that the Environment exists.`,
      whereToLook: [
        { label: `The Release file ${input.releasePath}` },
        {
          label:
            "The ApplicationSet's git files generator pattern: kubectl get applicationsets -n argocd -o yaml",
        },
        {
          label: `The Environment ${app?.name ?? `for ${stage}`}: does it exist and is it Ready?`,
        },
        {
          label:
            'The ApplicationSet controller logs (kubectl logs -n argocd deploy/argocd-applicationset-controller)',
        },
        ...prLink,
      ],
    };
  }

  const ns = app.name;
  const syncStatus = app.syncStatus;
  const operationPhase = app.operationPhase;
  const runningReleased = input.runningDigests.some(d =>
    sameDigest(d, released),
  );
  const finishedMs = millis(app.operationFinishedAt);
  // ArgoCD's times have whole seconds: a sync in the merge's own second is after it.
  const mergeMs = wholeSecond(millis(mergeAt));
  const reconciledMs = millis(app.reconciledAt);
  const syncedAfterMerge =
    finishedMs !== undefined && mergeMs !== undefined && finishedMs >= mergeMs;
  const syncedStep = 'ArgoCD synced the new Release';

  // 5. A sync operation is running right now.
  if (operationPhase === 'Running' || operationPhase === 'Terminating') {
    return {
      state: 'in-progress',
      code: 'syncing',
      lastCompletedStep: mergedStep,
      likelyCause: `ArgoCD is syncing ${appName} (operation ${operationPhase}${app.operationMessage ? `: ${app.operationMessage}` : ''}); wait for it to finish.`,
      whereToLook: [
        ...appLink,
        { label: `kubectl argo rollouts get rollout ${service} -n ${ns}` },
        ...prLink,
      ],
    };
  }

  // 6. The last sync failed: admission (Kyverno) usually refused the workload.
  if (operationPhase === 'Failed' || operationPhase === 'Error') {
    const message = app.operationMessage ?? app.healthMessage;
    const admission = message !== undefined && ADMISSION_PATTERN.test(message);
    return {
      state: 'stuck',
      code: 'merged-out-of-sync',
      lastCompletedStep: mergedStep,
      likelyCause: admission
        ? `ArgoCD's sync failed because admission refused the workload (signing, provenance or a policy is missing): ${message}`
        : `ArgoCD's last sync ${operationPhase === 'Failed' ? 'failed' : 'errored'}, so ${appName} is not running the new Release${message ? `: ${message}` : ''}.`,
      whereToLook: [
        ...appLink,
        ...(admission
          ? [
              {
                label: `Admission controller (Kyverno) logs and policy reports: kubectl get policyreports -n ${ns}`,
              },
              {
                label:
                  'The supply-chain policy: is the digest signed and attested by the build-sign pipeline?',
              },
            ]
          : [
              {
                label: `The sync operation's result in ${appName} (kubectl get application ${appName} -n argocd -o yaml)`,
              },
            ]),
        { label: `kubectl get events -n ${ns} --sort-by=.lastTimestamp` },
        ...prLink,
      ],
    };
  }

  // 7. Not in sync with git.
  // The Release on main is already live when the service runs its digest, or a sync finished
  // after the Release changed; then a lasting OutOfSync is not about the Release at all.
  const releaseLive = runningReleased || syncedAfterMerge;
  const settledSinceMerge =
    sinceMerge === undefined || sinceMerge > t.syncStuckSeconds;
  let falseDiff = false;
  if (syncStatus !== 'Synced') {
    if (syncStatus === 'OutOfSync' && releaseLive && settledSinceMerge) {
      falseDiff = true; // reported below unless something worse is going on
    } else if (syncStatus === 'OutOfSync') {
      const stuck =
        sinceMerge === undefined ? false : sinceMerge > t.syncStuckSeconds;
      const when =
        sinceMerge === undefined
          ? ''
          : ` ${formatSeconds(sinceMerge)} after the merge`;
      return {
        state: stuck ? 'stuck' : 'in-progress',
        code: 'merged-out-of-sync',
        lastCompletedStep: mergedStep,
        likelyCause: stuck
          ? `${appName} is still OutOfSync${when}: ArgoCD has not synced the new Release. Auto-sync may be off or blocked by a sync window, or ArgoCD has not refreshed from git — sync or refresh the Application and read its conditions.`
          : `ArgoCD has not synced the new Release yet (OutOfSync${when}); it usually does within a few minutes.`,
        whereToLook: [
          ...appLink,
          { label: `argocd app get ${appName} --refresh` },
          { label: `The Release file ${input.releasePath}` },
          ...prLink,
        ],
      };
    } else {
      // `Unknown` (or no status): ArgoCD could not compare the Application with git.
      return {
        state: 'stuck',
        code: 'merged-out-of-sync',
        lastCompletedStep: mergedStep,
        likelyCause: `ArgoCD could not compare ${appName} with git (sync status ${syncStatus ?? 'not reported'}): usually a manifest generation error (the kustomize overlay, or repo access). The Application's conditions say which.${app.healthMessage ? ` ${app.healthMessage}` : ''}`,
        whereToLook: [
          ...appLink,
          {
            label: `The Application's conditions: kubectl get application ${appName} -n argocd -o yaml`,
          },
          {
            label: `The overlay the Application's source path points at, for ${input.releasePath}`,
          },
          ...prLink,
        ],
      };
    }
  }

  // 8. Synced, but ArgoCD has not compared with git since the Release changed (and the service
  // does not run the released digest): it has not picked the merge up yet.
  if (
    !runningReleased &&
    input.releaseApplied !== true &&
    mergeMs !== undefined &&
    (reconciledMs === undefined || reconciledMs < mergeMs) &&
    !syncedAfterMerge
  ) {
    const stuck = sinceMerge! > t.syncStuckSeconds;
    return {
      state: stuck ? 'stuck' : 'in-progress',
      code: 'merged-out-of-sync',
      lastCompletedStep: mergedStep,
      likelyCause: stuck
        ? `ArgoCD has not looked at git since the Release changed ${formatSeconds(sinceMerge!)} ago (last reconciled ${app.reconciledAt ?? 'never'}): refresh ${appName}, and check the repo webhook and the controller.`
        : `ArgoCD has not picked up the merge yet (the Release changed ${formatSeconds(sinceMerge!)} ago); it polls git every few minutes.`,
      whereToLook: [
        ...appLink,
        { label: `argocd app get ${appName} --refresh` },
        { label: `The Release file ${input.releasePath}` },
        ...prLink,
      ],
    };
  }

  const canary = input.canary;
  // The service's own health where its Rollout's is known; the Application's otherwise.
  const ownHealth = input.rolloutHealth ?? {
    status: app.healthStatus,
    message: app.healthMessage,
  };
  const healthStatus = ownHealth.status;
  const healthMessage = ownHealth.message;
  const healthOf = input.rolloutHealth ? `Rollout ${service}` : appName;
  const canaryStep =
    canary && canary.totalSteps > 0
      ? `Canary at ${canary.weight}% (step ${canary.currentStep} of ${canary.totalSteps})`
      : undefined;
  const rolloutLook: DiagnosisLink[] = [
    { label: `kubectl argo rollouts get rollout ${service} -n ${ns}` },
  ];

  // 9. The Rollout was aborted: analysis failed, the old digest keeps serving.
  const aborted =
    canary?.aborted === true ||
    (healthMessage !== undefined &&
      /\baborted?\b|RolloutAborted/i.test(healthMessage));
  if (aborted) {
    const message = canary?.message ?? healthMessage;
    return {
      state: 'stuck',
      code: 'rollout-aborted',
      lastCompletedStep: syncedStep,
      likelyCause: `The Rollout of ${service} was aborted — usually its analysis failed${message ? ` (${message})` : ''}. The old digest keeps serving; fix the problem and push a new digest, or roll back the Release.`,
      whereToLook: [
        ...rolloutLook,
        { label: `The failed AnalysisRun: kubectl get analysisruns -n ${ns}` },
        ...appLink,
        { label: "The service's error rate and latency during the canary" },
        ...prLink,
      ],
    };
  }

  // 10. Degraded: probes failing (or pods that cannot be pulled or scheduled).
  if (healthStatus === 'Degraded' || canary?.phase === 'Degraded') {
    const since = app.healthSince ?? app.operationFinishedAt ?? mergeAt;
    const degradedFor = secondsSince(since, now);
    const stuck =
      t.degradedStuckSeconds <= 0 ||
      degradedFor === undefined ||
      degradedFor > t.degradedStuckSeconds;
    const message = healthMessage ?? canary?.message;
    const reason = degradedReason(message);
    return {
      state: stuck ? 'stuck' : 'in-progress',
      code: 'degraded',
      lastCompletedStep: canaryStep ?? syncedStep,
      likelyCause: `${healthOf} is Degraded${degradedFor !== undefined ? ` (for ${formatSeconds(degradedFor)})` : ''}: ${reason.cause}${message ? ` — ${message}` : ''}`,
      whereToLook: [
        ...reason.look(service, ns),
        {
          label: `kubectl describe pod -n ${ns} -l app.kubernetes.io/name=${service}`,
        },
        ...rolloutLook,
        ...appLink,
        ...prLink,
      ],
    };
  }

  // 11. A canary in progress: usually soaking, not stuck.
  if (canary && !canary.complete && canary.totalSteps > 0) {
    return diagnoseCanary(input, t, canary, canaryStep!, rolloutLook, appLink);
  }
  if (!canary && healthStatus === 'Suspended') {
    return {
      state: 'in-progress',
      code: 'canary-soaking',
      lastCompletedStep: syncedStep,
      likelyCause: `The Rollout of ${service} is paused (${healthOf} is Suspended): usually a canary soaking, not stuck.${healthMessage ? ` ${healthMessage}` : ''}`,
      whereToLook: [...rolloutLook, ...appLink, ...prLink],
    };
  }

  // 12. Pods still starting.
  if (healthStatus === 'Progressing' || healthStatus === 'Missing') {
    return {
      state: 'in-progress',
      code: 'syncing',
      lastCompletedStep: syncedStep,
      likelyCause: `ArgoCD synced the new Release; ${healthOf} is ${healthStatus} while the new pods start${healthMessage ? `: ${healthMessage}` : ''}.`,
      whereToLook: [
        ...rolloutLook,
        { label: `kubectl get pods -n ${ns}` },
        ...appLink,
        ...prLink,
      ],
    };
  }

  // 13. Synced and settled, but the service does not run the released digest.
  if (!runningReleased) {
    const running = input.runningDigests.length
      ? input.runningDigests.map(short).join(', ')
      : 'no digest ArgoCD reports';
    return {
      state: 'stuck',
      code: 'wrong-digest-running',
      lastCompletedStep: syncedStep,
      likelyCause: `ArgoCD synced, but ${service} runs ${running} while the Release names ${short(released)}: a tag/digest mismatch (the image reference in the overlay does not take the Release's digest), or the wrong environment was targeted (the Application's source path or the ApplicationSet does not point at ${input.releasePath}).`,
      whereToLook: [
        ...appLink,
        {
          label: `The image reference for ${service} in the overlay (its name must match the one the Release digest is injected for)`,
        },
        {
          label: `The Application's source path vs the Release path ${input.releasePath}`,
        },
        { label: `The Release file ${input.releasePath}` },
        ...prLink,
      ],
    };
  }

  // 14. ArgoCD answered but cannot tell the health.
  if (healthStatus !== 'Healthy') {
    return {
      state: 'unknown',
      code: 'argocd-unreachable',
      lastCompletedStep: syncedStep,
      likelyCause: `ArgoCD reports ${healthStatus ? `health ${healthStatus}` : 'no health'} for ${healthOf}, so whether ${service} serves the new digest cannot be told${healthMessage ? `: ${healthMessage}` : ''}.`,
      whereToLook: [...appLink, ...rolloutLook, ...prLink],
    };
  }

  // 15. Running and healthy, but ArgoCD keeps seeing a difference that is not there.
  if (falseDiff) {
    return {
      state: 'stuck',
      code: 'out-of-sync-no-change',
      lastCompletedStep: syncedStep,
      likelyCause: `${appName} stays OutOfSync although nothing changed (the Release is already live): ArgoCD's client-side diff sees a difference that is not there (defaulted fields, mutating webhooks); enable server-side diff (\`${SERVER_SIDE_DIFF_ANNOTATION}\`) or ignoreDifferences.`,
      whereToLook: [
        ...appLink,
        { label: `argocd app diff ${appName}` },
        {
          label: `The Application's annotations: ${SERVER_SIDE_DIFF_ANNOTATION}`,
        },
        { label: 'The ApplicationSet template: ignoreDifferences' },
      ],
    };
  }

  // 16. Everything holds.
  const serving = `serving ${short(released)}`;
  return {
    state: 'ok',
    code: 'healthy',
    lastCompletedStep:
      canary && canary.totalSteps > 0
        ? `Canary complete; ${serving}`
        : `${serving[0].toUpperCase()}${serving.slice(1)}`,
    likelyCause: `Nothing is stuck: ${service} in ${stage} is Synced, Healthy and runs the released ${short(released)}.`,
    whereToLook: [...appLink, ...prLink],
  };
}

// ---------------------------------------------------------------------------------------------

function appLinkOf(app: DiagnosisInput['application']): DiagnosisLink[] {
  return app?.url ? [{ label: `ArgoCD Application ${app.name}`, url: app.url }] : [];
}

function approverText(approvers: string[]): string {
  return approvers.length
    ? `members of ${approvers.map(actorNameWithoutCatalog).join(', ')}`
    : 'no approver group is configured for this product';
}

function diagnosePullRequest(
  input: DiagnosisInput,
  t: DiagnosisThresholds,
  prLink: DiagnosisLink[],
): Diagnosis {
  const promotion = input.promotion!;
  const { stage, now } = input;
  const description = promotion.healthDescription;
  const waited = secondsSince(promotion.since, now);
  const opened = `PR opened by ${actorNameWithoutCatalog(promotion.requestedBy)}`;
  const sourceLook: DiagnosisLink = {
    label: 'The source stage on the promotion ladder (its failing checks)',
  };

  if (promotion.status === 'failed' || promotion.healthState === 'failure') {
    return {
      state: 'stuck',
      code: 'checks-failing',
      lastCompletedStep: opened,
      likelyCause:
        promotion.status === 'failed'
          ? `The promotion failed${description ? `: ${description}` : ''}. Request it again once the cause is fixed.`
          : `The PR's health check fails because the source is not healthy${description ? `: ${description}` : ''}. It merges once the source runs the digest healthy again.`,
      whereToLook: [
        ...prLink,
        sourceLook,
        { label: 'The promotions/health status on the PR head commit' },
      ],
    };
  }

  if (promotion.status === 'awaiting-approval') {
    const stuck = waited !== undefined && waited > t.approvalWaitSeconds;
    const pending =
      promotion.healthState === 'success'
        ? ''
        : ` Its health check is ${promotion.healthState ?? 'not reported'} yet${description ? ` (${description})` : ''}.`;
    const wait = waited !== undefined ? ` for ${formatSeconds(waited)}` : '';
    return {
      state: stuck ? 'stuck' : 'in-progress',
      code: 'awaiting-approval',
      lastCompletedStep:
        promotion.healthState === 'success' ? 'PR checks passed' : opened,
      likelyCause: `The PR into ${stage} is waiting${wait} for a release-approver: ${approverText(input.approvers)}.${pending}${stuck ? ' Worth a reminder to an approver.' : ''}`,
      whereToLook: [
        ...prLink,
        ...input.approvers.map(group => ({ label: `Approvers: ${actorNameWithoutCatalog(group)}` })),
      ],
    };
  }

  // open (merges automatically) or approved: the Gate merges once the health check passes.
  const approved = promotion.status === 'approved';
  const step = approved ? 'PR approved' : opened;
  if (promotion.healthState === 'success') {
    return {
      state: 'in-progress',
      code: 'checks-pending',
      lastCompletedStep: approved ? step : 'PR checks passed',
      likelyCause: `The PR's checks passed${approved ? ' and it is approved' : ''}; the Gate merges it on its next run.`,
      whereToLook: [...prLink],
    };
  }
  return {
    state: 'in-progress',
    code: 'checks-pending',
    lastCompletedStep: step,
    likelyCause: `The PR's health check is pending: the Gate merges it once the source runs the digest Synced and Healthy${description ? ` (${description})` : ''}.`,
    whereToLook: [...prLink, sourceLook],
  };
}

function diagnoseCanary(
  input: DiagnosisInput,
  t: DiagnosisThresholds,
  canary: CanaryState,
  canaryStep: string,
  rolloutLook: DiagnosisLink[],
  appLink: DiagnosisLink[],
): Diagnosis {
  const { service } = input;
  const ns = input.application?.name ?? '<namespace>';
  const promote: DiagnosisLink = {
    label: `kubectl argo rollouts promote ${service} -n ${ns}`,
  };
  const base = { lastCompletedStep: canaryStep };
  const look = [...rolloutLook, ...appLink];

  if (!canary.paused) {
    return {
      ...base,
      state: 'in-progress',
      code: 'canary-soaking',
      likelyCause: `The canary is progressing at ${canary.weight}% of traffic (step ${canary.currentStep} of ${canary.totalSteps}): waiting for pods to become ready or for its analysis.`,
      whereToLook: [
        ...look,
        { label: "The service's readiness endpoint and its error rate" },
      ],
    };
  }

  const pausedFor = canary.pausedForSeconds;
  const duration = canary.pauseDurationSeconds;
  const inconclusive = /^Inconclusive/.test(canary.pauseReason ?? '');

  // An indefinite pause (`pause: {}`), an inconclusive analysis or a manual pause: a person decides.
  if (duration === undefined) {
    const stuck = pausedFor !== undefined && pausedFor > t.canaryStuckSeconds;
    const what = inconclusive
      ? `its analysis was inconclusive (${canary.pauseReason}), so it waits for a person to promote or abort it`
      : `waiting for a manual promote: kubectl argo rollouts promote ${service}`;
    return {
      ...base,
      state: stuck ? 'stuck' : 'in-progress',
      code: stuck ? 'canary-stuck' : 'canary-soaking',
      likelyCause: `The canary is paused at ${canary.weight}% of traffic${pausedFor !== undefined ? ` for ${formatSeconds(pausedFor)}` : ''} on an indefinite pause: ${what}.`,
      whereToLook: [promote, ...look],
    };
  }

  if (pausedFor === undefined) {
    return {
      ...base,
      state: 'in-progress',
      code: 'canary-soaking',
      likelyCause: `The canary at ${canary.weight}% of traffic is usually soaking, not stuck: ${formatSeconds(duration)} pause (since when is not reported).`,
      whereToLook: look,
    };
  }

  if (pausedFor <= duration) {
    return {
      ...base,
      state: 'in-progress',
      code: 'canary-soaking',
      likelyCause: `The canary at ${canary.weight}% of traffic is usually soaking, not stuck: ${formatSeconds(duration)} pause, ${formatSeconds(canary.pauseRemainingSeconds ?? duration - pausedFor)} left.`,
      whereToLook: [
        ...look,
        { label: "The service's readiness endpoint and its error rate" },
      ],
    };
  }

  const over = pausedFor - duration;
  if (over <= t.canaryStuckSeconds) {
    return {
      ...base,
      state: 'in-progress',
      code: 'canary-soaking',
      likelyCause: `The canary at ${canary.weight}% of traffic is usually soaking, not stuck: the ${formatSeconds(duration)} pause ended ${formatSeconds(over)} ago; the Rollouts controller moves on at its next reconcile.`,
      whereToLook: look,
    };
  }
  return {
    ...base,
    state: 'stuck',
    code: 'canary-stuck',
    likelyCause: `The canary has been paused for ${formatSeconds(pausedFor)}, ${formatSeconds(over)} longer than its ${formatSeconds(duration)} pause: the Rollouts controller did not resume it. Check the controller, or promote it by hand: kubectl argo rollouts promote ${service}.`,
    whereToLook: [
      ...rolloutLook,
      {
        label:
          'The Argo Rollouts controller logs (kubectl logs -n argo-rollouts deploy/argo-rollouts)',
      },
      promote,
      ...appLink,
    ],
  };
}

interface DegradedReason {
  cause: string;
  look: (service: string, ns: string) => DiagnosisLink[];
}

function degradedReason(message: string | undefined): DegradedReason {
  if (
    message &&
    /ImagePullBackOff|ErrImagePull|manifest unknown|not found/i.test(message)
  ) {
    return {
      cause:
        'the pods cannot pull the image — the digest never reached the registry',
      look: () => [
        {
          label:
            "The CI run's push step: did the build actually publish this digest?",
        },
        {
          label: 'The registry: does the digest exist in the team repository?',
        },
      ],
    };
  }
  if (
    message &&
    /Unschedulable|FailedScheduling|Insufficient|quota|node selector|didn't match|untolerated taint/i.test(
      message,
    )
  ) {
    return {
      cause:
        'the cluster cannot schedule the pods (capacity, quotas or node selectors)',
      look: (_service, ns) => [
        {
          label: `Pod events: kubectl get events -n ${ns} --sort-by=.lastTimestamp`,
        },
        { label: `Resource quotas: kubectl describe resourcequota -n ${ns}` },
      ],
    };
  }
  return {
    cause: 'probes are failing — the new pods do not become ready',
    look: service => [
      { label: `${service}'s readiness endpoint and its error rate` },
    ],
  };
}
