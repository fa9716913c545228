import type { Application } from '../../argo/types';
import { healthIsInResourceTree } from '../../argo/resourceTree';
import type { ServiceHealthCheck } from '../serviceHealthTypes';
import { check, withMessage } from './check';
import { otherRollout, resourcesOf } from './otherRollouts';
import type { ServiceFacts } from './serviceFacts';

/** The health a canary passes through, which may move between two reads. */
const TRANSITIONAL_HEALTH: readonly string[] = ['Progressing', 'Suspended'];

/** Another service's Rollout whose health is the Application's (not Healthy) health, if any. */
function otherRolloutWithHealth(
  app: Application,
  service: string,
  appHealth: string | undefined,
): string | undefined {
  if (!appHealth || appHealth === 'Healthy') return undefined;
  return otherRollout(app, service, r => r.health?.status === appHealth);
}

/**
 * On Argo CD 3 (`appTree`), is the Application's Progressing or Suspended health one that none of
 * its resources has, each resource's health being known? Argo CD's aggregate is the worst of its
 * resources', so the tree was read at another moment than the Application. A Degraded or Missing
 * aggregate counts even so: a wrong "healthy" costs more than a wrong "progressing".
 */
function unexplainedByTree(
  app: Application,
  appHealth: string | undefined,
): boolean {
  if (
    !healthIsInResourceTree(app) ||
    !appHealth ||
    !TRANSITIONAL_HEALTH.includes(appHealth)
  ) {
    return false;
  }
  const resources = resourcesOf(app);
  return (
    resources.length > 0 &&
    resources.every(r => r?.health?.status !== undefined) &&
    !resources.some(r => r.health?.status === appHealth)
  );
}

/**
 * The Application's health is the worst of all its resources, so one service's failing canary
 * would sink every other. Where this service's Rollout health is known and another service's
 * Rollout explains the Application's health, that health is the other service's; otherwise
 * (nothing finer known, or nothing explains it) it counts here too.
 */
export function checkApplicationHealth(
  facts: ServiceFacts,
): ServiceHealthCheck {
  const { app, appLabel, service } = facts;
  const appHealth = facts.status.health?.status;
  const rolloutHealthKnown = facts.rollout.health !== undefined;
  const explainedBy = rolloutHealthKnown
    ? otherRolloutWithHealth(app, service, appHealth)
    : undefined;
  if (explainedBy) {
    return check(
      'app-health',
      'healthy',
      `${appLabel} is ${appHealth} because of Rollout ${explainedBy}; ${service} is judged by its own Rollout`,
    );
  }
  // On Argo CD 3 the resources' health comes from a second read (the resource tree): when none of
  // them explains the Application's health, the two reads caught different moments, and a service
  // running its own Release alone is judged by its own Rollout.
  if (
    rolloutHealthKnown &&
    facts.ownReleaseLive &&
    unexplainedByTree(app, appHealth)
  ) {
    return check(
      'app-health',
      'healthy',
      `${appLabel} is ${appHealth}, which no resource of its resource tree (read after it) explains; ${facts.anotherServicesChange}`,
    );
  }
  const message = facts.status.health?.message;
  switch (appHealth) {
    case 'Healthy':
      return check('app-health', 'healthy', `${appLabel} is Healthy`);
    case 'Progressing':
    case 'Suspended':
      return check(
        'app-health',
        'progressing',
        withMessage(`${appLabel} is ${appHealth}`, message),
      );
    case 'Degraded':
      return check(
        'app-health',
        'unhealthy',
        withMessage(`${appLabel} is Degraded`, message),
      );
    case 'Missing':
      return check(
        'app-health',
        facts.settling ? 'progressing' : 'unhealthy',
        withMessage(
          `${appLabel} is Missing: resources in git are not in the cluster`,
          message,
        ),
      );
    default:
      return check(
        'app-health',
        'unknown',
        withMessage(
          appHealth
            ? `${appLabel} health is ${appHealth}`
            : `ArgoCD reports no health for ${appLabel}`,
          message,
        ),
      );
  }
}
