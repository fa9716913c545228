import { applicationUnreadable } from './checks/applicationUnreadable';
import { checkApplicationHealth } from './checks/appHealthCheck';
import { check } from './checks/check';
import { checkImages } from './checks/imageCheck';
import { checkReconciled } from './checks/reconciledCheck';
import { readServiceFacts } from './checks/serviceFacts';
import { checkSync } from './checks/syncCheck';
import type { ServiceHealth, ServiceHealthInput } from './serviceHealthTypes';
import { worstVerdict } from './verdict';

export { HEALTH_VERDICT_SEVERITY, worstVerdict } from './verdict';
export type { HealthVerdict } from './verdict';
export * from './serviceHealthTypes';
export * from './stageHealth';
export { healthNotRead } from './checks/applicationUnreadable';

/**
 * THE reality rule: is `service` really running what the stage's Release record names?
 *
 * Healthy only when ALL hold: the Application was read; it is `Synced`; ArgoCD has applied the
 * current Release for this service, as the Application's shape tells (`judgeReleaseApplied`);
 * Argo CD reconciled after the last sync finished; the service's Rollout is `Healthy` (a paused
 * canary is Suspended, i.e. still in progress); and the running images include the released
 * digest (and, once the canary is complete, only it).
 *
 * Each service tells its own truth: the Application's aggregate health does not count where another
 * service's Rollout explains it and this service's Rollout health is known, and an OutOfSync Application, a running sync or a pending
 * refresh does not hold back a service whose own Release is applied and running alone with its
 * Rollout done (another service's new digest is what moved).
 *
 * Each check is a small evaluator in `checks/`, reading the facts `readServiceFacts` read once.
 *
 * @public
 */
export function evaluateServiceHealth(
  service: string,
  input: ServiceHealthInput,
): ServiceHealth {
  const app = input.application;
  const appName = input.applicationName ?? app?.metadata?.name;
  if (input.applicationLookupError !== undefined || !app) {
    return applicationUnreadable(input, appName);
  }
  const appLabel = appName ? `Application ${appName}` : 'The Application';
  const facts = readServiceFacts(service, input, app, appLabel);
  const { applied, rollout } = facts;
  const syncCheck = checkSync(facts);
  const appHealthCheck = checkApplicationHealth(facts);
  // Nothing is still moving, so a wrong image will not become the released one.
  const settled =
    syncCheck.verdict === 'healthy' &&
    appHealthCheck.verdict === 'healthy' &&
    (rollout.health === undefined || rollout.health.status === 'Healthy') &&
    applied.verdict !== 'progressing' &&
    rollout.check.verdict !== 'progressing';
  const checks = [
    check('application', 'healthy', `${appLabel} found`),
    syncCheck,
    check('revision', applied.verdict, applied.detail),
    checkReconciled(facts),
    appHealthCheck,
    rollout.check,
    checkImages(facts, settled),
  ];
  const verdict = worstVerdict(checks.map(c => c.verdict));
  const result: ServiceHealth = {
    verdict,
    healthy: verdict === 'healthy',
    reasons: checks.filter(c => c.verdict !== 'healthy').map(c => c.detail),
    checks,
    runningDigests: facts.runningDigests,
  };
  if (rollout.canary) result.canary = rollout.canary;
  if (rollout.health) result.rolloutHealth = rollout.health;
  return result;
}
