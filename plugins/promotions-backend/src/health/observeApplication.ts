import { LoggerService } from '@backstage/backend-plugin-api';
import {
  Application,
  Rollout,
  findRollout,
  healthIsInResourceTree,
  withResourceTreeHealth,
} from '@refplat/plugin-promotions-common';
import { HealthSource, ObservedApplication } from './HealthSource';

/** An Application as the health rule reads it, with the live Rollouts that need explaining. */
export interface ApplicationObservation {
  /** With per-resource health in `status.resources`, also on Argo CD 3. */
  application: Application;
  /** Live Rollouts of the services whose Rollout is not Healthy (a canary to explain). */
  rollouts: Map<string, Rollout>;
}

/** A Rollout needs its live object when its health is neither Healthy nor Missing (not there). */
function needsLiveRollout(application: Application, service: string): boolean {
  const entry = findRollout(application, service);
  const health = entry?.health?.status;
  return entry !== undefined && health !== 'Healthy' && health !== 'Missing';
}

/**
 * Completes what the Application list says about `services`: on Argo CD 3 (`appTree`) the
 * resource health from the source (the resource tree, cached per Application version), then the
 * live Rollouts of those that are not Healthy, read together. A failed read leaves the rule
 * less to go on (it says so), never fails the ladder.
 */
export async function observeApplication(
  source: HealthSource,
  observed: ObservedApplication,
  services: string[],
  logger: LoggerService,
): Promise<ApplicationObservation> {
  let application = observed.application;
  const name = application.metadata?.name;
  let rollouts = new Map<string, Rollout>();
  if (healthIsInResourceTree(application)) {
    try {
      const health = await source.resourceHealth(observed);
      application = withResourceTreeHealth(application, health.nodes, health.kinds);
      rollouts = health.rollouts;
    } catch (error) {
      logger.warn(`Cannot read the resource health of ${name}: ${error}`);
    }
  }
  const needed = services.filter(service => needsLiveRollout(application, service));
  const unread = needed.filter(service => !rollouts.has(service));
  if (unread.length > 0) {
    try {
      rollouts = new Map([...rollouts, ...(await source.liveRollouts(observed, unread))]);
    } catch (error) {
      logger.warn(`Cannot read the Rollouts ${unread.join(', ')} of ${name}: ${error}`);
    }
  }
  return {
    application,
    rollouts: new Map([...rollouts].filter(([service]) => needed.includes(service))),
  };
}
