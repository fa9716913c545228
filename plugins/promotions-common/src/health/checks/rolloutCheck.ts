import { findRollout } from '../../argo/application';
import {
  CanaryState,
  canaryState,
  describeCanary,
} from '../../argo/canaryState';
import { RolloutHealth, rolloutHealth } from '../../argo/rolloutHealth';
import type { Application } from '../../argo/types';
import { hasCanarySteps } from '../argoFacts';
import type {
  ServiceHealthCheck,
  ServiceHealthInput,
} from '../serviceHealthTypes';
import { check, withMessage } from './check';

const ROLLOUT_HEALTH_STATUSES: readonly string[] = [
  'Healthy',
  'Progressing',
  'Suspended',
  'Degraded',
  'Unknown',
];

/** The service's own Rollout as read, and the `rollout` check it gives. */
export interface RolloutReading {
  /** Only from a live Rollout. */
  canary?: CanaryState;
  health?: RolloutHealth;
  check: ServiceHealthCheck;
}

/**
 * The service's own Rollout: from the live Rollout, else its entry in `status.resources`.
 * `settling` (not Synced yet, or syncing): a Rollout not there yet may still come.
 */
export function readRollout(
  service: string,
  input: ServiceHealthInput,
  app: Application,
  appLabel: string,
  settling: boolean,
): RolloutReading {
  if (input.rollout) {
    const canary = canaryState(input.rollout, input.now);
    const health = rolloutHealth(input.rollout);
    return { canary, health, check: rolloutCheckFrom(service, health, canary) };
  }
  const entry = findRollout(app, service);
  const entryHealth = entry?.health?.status;
  if (!entry) {
    return {
      check: check(
        'rollout',
        settling ? 'progressing' : 'unhealthy',
        `No Rollout named ${service} in ${appLabel}`,
      ),
    };
  }
  if (entryHealth === 'Missing') {
    return {
      check: check(
        'rollout',
        settling ? 'progressing' : 'unhealthy',
        `Rollout ${service} is Missing: it is in git but not in the cluster`,
      ),
    };
  }
  if (entryHealth) {
    const health: RolloutHealth = {
      status: ROLLOUT_HEALTH_STATUSES.includes(entryHealth)
        ? (entryHealth as RolloutHealth['status'])
        : 'Unknown',
    };
    if (entry.health?.message) health.message = entry.health.message;
    return { health, check: rolloutCheckFrom(service, health, undefined) };
  }
  return {
    check: check(
      'rollout',
      'unknown',
      app.status?.resourceHealthSource === 'appTree'
        ? `The health of Rollout ${service} is only in the resource tree (resourceHealthSource: appTree)`
        : `ArgoCD reports no health for Rollout ${service}`,
    ),
  };
}

function rolloutCheckFrom(
  service: string,
  health: RolloutHealth,
  canary: CanaryState | undefined,
): ServiceHealthCheck {
  const describe = (fallback: string) =>
    hasCanarySteps(canary)
      ? describeCanary(canary)
      : withMessage(fallback, health.message);
  if (canary?.aborted) {
    return check(
      'rollout',
      'unhealthy',
      withMessage(
        `Rollout ${service} was aborted`,
        health.message ?? canary.message,
      ),
    );
  }
  switch (health.status) {
    case 'Healthy':
      return check(
        'rollout',
        'healthy',
        hasCanarySteps(canary)
          ? describeCanary(canary)
          : `Rollout ${service} is Healthy`,
      );
    case 'Progressing':
      return check(
        'rollout',
        'progressing',
        describe(`Rollout ${service} is Progressing`),
      );
    case 'Suspended':
      return check(
        'rollout',
        'progressing',
        describe(`Rollout ${service} is paused`),
      );
    case 'Degraded':
      return check(
        'rollout',
        'unhealthy',
        withMessage(`Rollout ${service} is Degraded`, health.message),
      );
    default:
      return check(
        'rollout',
        'unknown',
        withMessage(`Rollout ${service} health is Unknown`, health.message),
      );
  }
}
