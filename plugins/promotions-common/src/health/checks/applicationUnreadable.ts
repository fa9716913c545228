import { canaryState } from '../../argo/canaryState';
import { rolloutHealth } from '../../argo/rolloutHealth';
import type {
  ServiceHealth,
  ServiceHealthCheck,
  ServiceHealthCheckId,
  ServiceHealthInput,
} from '../serviceHealthTypes';
import { check } from './check';

const CHECKS_AFTER_THE_APPLICATION: ServiceHealthCheckId[] = [
  'sync',
  'revision',
  'reconciled',
  'app-health',
  'rollout',
  'image',
];

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
          `ArgoCD unreachable: ${input.applicationLookupError}`,
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
      ...CHECKS_AFTER_THE_APPLICATION.map(id =>
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
