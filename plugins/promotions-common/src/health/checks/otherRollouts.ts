import type { Application, ApplicationResourceStatus } from '../../argo/types';

/** The Application's `status.resources`, or none when it has no list. */
export function resourcesOf(app: Application): ApplicationResourceStatus[] {
  return Array.isArray(app.status?.resources) ? app.status!.resources : [];
}

/** The name of another service's Rollout in `status.resources` that `matches`, if any. */
export function otherRollout(
  app: Application,
  service: string,
  matches: (resource: ApplicationResourceStatus) => boolean,
): string | undefined {
  const resources = resourcesOf(app);
  return resources.find(
    r => r?.kind === 'Rollout' && r.name !== service && matches(r),
  )?.name;
}
