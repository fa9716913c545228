import { syncedRevision } from '../../argo/application';
import { argoTimeIso } from '../../argo/time';
import { syncDidNotApply } from '../argoFacts';
import { shortRevision } from '../format';
import type { ServiceHealthCheck } from '../serviceHealthTypes';
import { check, withMessage } from './check';
import { otherRollout } from './otherRollouts';
import type { ServiceFacts } from './serviceFacts';

/**
 * Sync status and the last sync operation. A running sync, or an OutOfSync that another
 * service's Rollout explains, does not hold back a service whose own Release is live.
 */
export function checkSync(facts: ServiceFacts): ServiceHealthCheck {
  const { app, status, syncStatus, syncOperation, ownReleaseLive } = facts;
  const operation = status.operationState;
  if (syncOperation === 'running') {
    const since = argoTimeIso(operation?.startedAt);
    const running = withMessage(
      `ArgoCD sync operation is ${operation?.phase}${since ? ` (started ${since})` : ''}`,
      operation?.message,
    );
    return ownReleaseLive
      ? check('sync', 'healthy', `${running}; ${facts.anotherServicesChange}`)
      : check('sync', 'progressing', running);
  }
  if (syncDidNotApply(syncOperation)) {
    return check(
      'sync',
      'unhealthy',
      withMessage(
        `ArgoCD's last sync ${syncOperation} (sync status ${syncStatus ?? 'unknown'})`,
        operation?.message,
      ),
    );
  }
  if (facts.comparison === 'synced') {
    return check(
      'sync',
      'healthy',
      `Synced to ${shortRevision(syncedRevision(app))}`,
    );
  }
  if (facts.comparison === 'out-of-sync') {
    // Relaxed only when another service's Rollout is the resource that is OutOfSync.
    const outOfSyncRollout = otherRollout(
      app,
      facts.service,
      r => r.status === 'OutOfSync',
    );
    return ownReleaseLive && outOfSyncRollout
      ? check(
          'sync',
          'healthy',
          `${facts.appLabel} is OutOfSync on Rollout ${outOfSyncRollout}; ${facts.anotherServicesChange}`,
        )
      : check(
          'sync',
          'progressing',
          'ArgoCD has not synced the new Release yet (OutOfSync)',
        );
  }
  const condition = Array.isArray(status.conditions)
    ? status.conditions.find(c => c?.message)
    : undefined;
  return check(
    'sync',
    'unknown',
    withMessage(
      syncStatus
        ? `ArgoCD could not compare the Application with git (sync status ${syncStatus})`
        : 'ArgoCD reports no sync status',
      condition?.message,
    ),
  );
}
