import { canaryState } from '../../argo/canaryState';
import { rolloutHealth } from '../../argo/rolloutHealth';
import type {
  ServiceHealth,
  ServiceHealthCheck,
  ServiceHealthCheckId,
  ServiceHealthInput,
} from '../serviceHealthTypes';
import { check } from './check';

const ALL_CHECKS: ServiceHealthCheckId[] = [
  'application',
  'sync',
  'revision',
  'reconciled',
  'app-health',
  'rollout',
  'image',
];

/**
 * Why the Application could not be read: ArgoCD was not reached, or it
 * refused the plugin's token (the backend's listing says "rejected the
 * token" then), which no wait on the network fixes.
 */
function lookupFailure(error: string): string {
  return /\brejected the token\b/.test(error) ? `ArgoCD refused the plugin: ${error}` : `ArgoCD unreachable: ${error}`;
}

/**
 * The Application could not be read (ArgoCD unreachable, or the Application not generated), so
 * nothing else can be said; a live Rollout given is still reported.
 */
export function applicationUnreadable(
  input: ServiceHealthInput,
  appName: string | undefined,
): ServiceHealth {
  const unreadable: ServiceHealthCheck =
    input.applicationLookupError !== undefined
      ? check(
          'application',
          'unknown',
          lookupFailure(input.applicationLookupError),
        )
      : {
          ...check(
            'application',
            'unknown',
            appName
              ? `Application ${appName} not found: the ApplicationSet has not generated it`
              : "The stage's Application was not found: the ApplicationSet has not generated it",
          ),
          ok: false,
        };
  const result: ServiceHealth = {
    verdict: 'unknown',
    healthy: false,
    reasons: [unreadable.detail],
    checks: [
      unreadable,
      ...ALL_CHECKS.slice(1).map(id =>
        check(id, 'unknown', 'Not checked: the Application could not be read'),
      ),
    ],
    runningDigests: [],
  };
  if (input.rollout) {
    result.canary = canaryState(input.rollout, input.now);
    result.rolloutHealth = rolloutHealth(input.rollout);
  }
  return result;
}

/**
 * The caller chose not to read this stage's health (an auto-promoter run
 * reads only the stages a promotion could leave): every check unknown, for
 * `reason`. Nothing about ArgoCD is implied.
 *
 * @public
 */
export function healthNotRead(reason: string): ServiceHealth {
  return {
    verdict: 'unknown',
    healthy: false,
    reasons: [reason],
    checks: ALL_CHECKS.map(id => check(id, 'unknown', reason)),
    runningDigests: [],
  };
}
