import type { Rollout, RolloutCondition } from './types';

/**
 * Argo CD's health of a Rollout (the statuses its Rollout health check can return).
 *
 * @public
 */
export type RolloutHealthStatus =
  'Healthy' | 'Progressing' | 'Suspended' | 'Degraded' | 'Unknown';

/** @public */
export interface RolloutHealth {
  status: RolloutHealthStatus;
  /** Omitted when Argo CD's message would be empty. */
  message?: string;
}

const KNOWN_STATUSES: ReadonlySet<string> = new Set([
  'Healthy',
  'Progressing',
  'Suspended',
  'Degraded',
  'Unknown',
]);

/**
 * Lua's `tonumber` on a JSON value: numbers stay numbers; strings convert only when the whole
 * string is a decimal (or `0x` hex) numeral; anything else is nil. This is what tells a
 * v0.10+ `observedGeneration` ("5") from a v0.9 pod-template hash ("6df79499bc").
 *
 * @public
 */
export function luaToNumber(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]+)$/.exec(s);
  if (hex) return (hex[1] === '-' ? -1 : 1) * parseInt(hex[2], 16);
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number(s);
  return undefined;
}

/**
 * `status.conditions` as a list; `{}` (seen in real objects) and garbage count as no conditions.
 *
 * @public
 */
export function rolloutConditions(rollout: Rollout): RolloutCondition[] {
  const conditions = rollout.status?.conditions;
  return Array.isArray(conditions) ? conditions : [];
}

/**
 * Whether the controller has observed the current spec. Only a numeric `observedGeneration`
 * (v0.10+) can be compared; a v0.9 hash, or a number larger than `metadata.generation` (an
 * all-digit v0.9 hash), counts as observed. A missing `metadata.generation` counts as 0, as in
 * the Rollouts controller (Argo CD's Lua would fail on it; real API objects always carry it).
 *
 * @public
 */
export function isRolloutGenerationObserved(rollout: Rollout): boolean {
  const status = rollout.status;
  if (status === undefined || status === null) return false;
  const observed = luaToNumber(status.observedGeneration);
  const generation = rollout.metadata?.generation ?? 0;
  if (observed === undefined || observed > generation) return true;
  return observed === generation;
}

/** v1.1+ Rollouts that reference a Deployment (`spec.workloadRef`) also track its generation. */
function isWorkloadGenerationObserved(rollout: Rollout): boolean {
  const annotations = rollout.metadata?.annotations;
  if (!rollout.spec?.workloadRef || !annotations) return true;
  const workloadGen = luaToNumber(
    annotations['rollout.argoproj.io/workload-generation'],
  );
  const observedWorkloadGen = luaToNumber(
    rollout.status?.workloadObservedGeneration,
  );
  return workloadGen === observedWorkloadGen;
}

/**
 * The stable ReplicaSet hash: `status.stableRS` (v0.8+), else `status.canary.stableRS`.
 * Mirrors the Lua: `""` when neither status block exists, undefined when `status.canary` exists
 * without `stableRS`.
 *
 * @public
 */
export function rolloutStableRS(rollout: Rollout): string | undefined {
  const status = rollout.status;
  if (status?.stableRS !== undefined && status.stableRS !== null)
    return status.stableRS;
  if (status?.canary !== undefined && status.canary !== null)
    return status.canary.stableRS;
  return '';
}

function isPaused(rollout: Rollout): boolean {
  const pauseConditions = rollout.status?.pauseConditions;
  if (Array.isArray(pauseConditions) && pauseConditions.length > 0) return true;
  return rollout.spec?.paused === true;
}

/**
 * The health Argo CD gives an `argoproj.io/Rollout`: a TypeScript port of Argo CD's Lua health
 * check (`resource_customizations/argoproj.io/Rollout/health.lua`).
 *
 * Order, as in the Lua:
 * 1. spec not yet observed (no status, `observedGeneration` behind, workload generation behind)
 *    → Progressing "Waiting for rollout spec update to be observed";
 * 2. v1.0+ `status.phase` is surfaced as is (`Paused` → Suspended) with `status.message`;
 * 3. pre-v1.0: conditions `InvalidSpec`, `Progressing/RolloutAborted`,
 *    `Progressing/ProgressDeadlineExceeded` → Degraded with the condition's message;
 * 4. `pauseConditions` or `spec.paused` → Suspended "Rollout is paused";
 * 5. no `currentPodHash` → Progressing (not reconciled);
 * 6. replica counts (more to update / still becoming available) → Progressing;
 * 7. blue-green: active selector and stable RS; canary: old replicas pending termination,
 *    stable RS not yet the current pod hash (steps not finished) → Progressing;
 * 8. otherwise Healthy.
 *
 * Deliberate tolerance where the Lua would raise an error (Argo CD then reports the error):
 * `conditions` that are not a list, a missing `metadata.generation`, a missing `spec.strategy`.
 *
 * @public
 */
export function rolloutHealth(rollout: Rollout): RolloutHealth {
  if (
    !isRolloutGenerationObserved(rollout) ||
    !isWorkloadGenerationObserved(rollout)
  ) {
    return {
      status: 'Progressing',
      message: 'Waiting for rollout spec update to be observed',
    };
  }
  const status = rollout.status!;
  const spec = rollout.spec ?? {};

  // Argo Rollouts v1.0+ records a phase and message that Argo CD surfaces as they are.
  if (typeof status.phase === 'string' && status.phase !== '') {
    const mapped = status.phase === 'Paused' ? 'Suspended' : status.phase;
    const message =
      typeof status.message === 'string' ? status.message : undefined;
    if (KNOWN_STATUSES.has(mapped)) {
      return withMessage(mapped as RolloutHealthStatus, message);
    }
    return withMessage(
      'Unknown',
      message ?? `Unrecognised Rollout phase "${status.phase}"`,
    );
  }

  for (const condition of rolloutConditions(rollout)) {
    if (condition?.type === 'InvalidSpec') {
      return withMessage('Degraded', condition.message);
    }
    if (
      condition?.type === 'Progressing' &&
      condition.reason === 'RolloutAborted'
    ) {
      return withMessage('Degraded', condition.message);
    }
    if (
      condition?.type === 'Progressing' &&
      condition.reason === 'ProgressDeadlineExceeded'
    ) {
      return withMessage('Degraded', condition.message);
    }
  }

  if (isPaused(rollout)) {
    return { status: 'Suspended', message: 'Rollout is paused' };
  }

  if (status.currentPodHash === undefined || status.currentPodHash === null) {
    return {
      status: 'Progressing',
      message: 'Waiting for rollout to finish: status has not been reconciled.',
    };
  }

  const desiredReplicas = spec.replicas ?? 1;
  const statusReplicas = status.replicas ?? 0;
  const updatedReplicas = status.updatedReplicas ?? 0;
  const availableReplicas = status.availableReplicas ?? 0;
  if (updatedReplicas < desiredReplicas) {
    return {
      status: 'Progressing',
      message:
        'Waiting for roll out to finish: More replicas need to be updated',
    };
  }
  if (availableReplicas < updatedReplicas) {
    return {
      status: 'Progressing',
      message:
        'Waiting for roll out to finish: updated replicas are still becoming available',
    };
  }

  const stableRS = rolloutStableRS(rollout);
  const strategy = spec.strategy;
  if (strategy?.blueGreen !== undefined && strategy.blueGreen !== null) {
    if (
      !status.blueGreen ||
      status.blueGreen.activeSelector !== status.currentPodHash
    ) {
      return {
        status: 'Progressing',
        message: 'active service cutover pending',
      };
    }
    if (stableRS !== '' && stableRS !== status.currentPodHash) {
      return {
        status: 'Progressing',
        message: 'waiting for analysis to complete',
      };
    }
  } else if (strategy?.canary !== undefined && strategy.canary !== null) {
    if (statusReplicas > updatedReplicas) {
      return {
        status: 'Progressing',
        message:
          'Waiting for roll out to finish: old replicas are pending termination',
      };
    }
    if (stableRS === '' || stableRS !== status.currentPodHash) {
      return {
        status: 'Progressing',
        message: 'Waiting for rollout to finish steps',
      };
    }
  }

  return { status: 'Healthy' };
}

function withMessage(
  status: RolloutHealthStatus,
  message: string | undefined,
): RolloutHealth {
  return message ? { status, message } : { status };
}
