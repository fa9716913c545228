import { runningImages, syncedRevisions } from './application';
import type { Application } from './types';

/** What a ladder shows of one Application; anything else it may say is churn to a ladder. */
function ladderFacts(app: Application) {
  const status = app.status;
  return JSON.stringify([
    status?.health?.status,
    status?.sync?.status,
    syncedRevisions(app),
    status?.operationState?.phase,
    runningImages(app),
  ]);
}

/**
 * Whether an event about an Application (ArgoCD's application stream, a Kubernetes
 * watch) may change what an open ladder shows: its health, sync status, synced
 * revision, operation phase or running images changed, or it appeared or went away.
 * The controller rewrites every Application on each refresh (`reconciledAt`,
 * `observedAt`, `resourceVersion`); such a write alone is not worth a refresh.
 *
 * @public
 */
export function applicationChangeMatters(
  before: Application | undefined,
  after: Application | undefined,
): boolean {
  if (!before || !after) return before !== after;
  return ladderFacts(before) !== ladderFacts(after);
}
