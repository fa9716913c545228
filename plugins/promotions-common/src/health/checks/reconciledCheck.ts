import { isReconciledAfterLastOperation } from '../../argo/application';
import { argoTimeIso } from '../../argo/time';
import type { ServiceHealthCheck } from '../serviceHealthTypes';
import { check } from './check';
import type { ServiceFacts } from './serviceFacts';

/** Has Argo CD looked at the live state since the last sync finished? */
export function checkReconciled(facts: ServiceFacts): ServiceHealthCheck {
  const { app, status } = facts;
  const reconciledAt = argoTimeIso(status.reconciledAt);
  if (isReconciledAfterLastOperation(app)) {
    return check(
      'reconciled',
      'healthy',
      reconciledAt
        ? `Reconciled at ${reconciledAt}`
        : 'No finished sync operation to compare with',
    );
  }
  const finishedAt = argoTimeIso(status.operationState?.finishedAt);
  const stale = `ArgoCD has not refreshed the live state since the last sync finished (reconciled ${reconciledAt ?? 'never'}, sync finished ${finishedAt})`;
  return facts.ownReleaseLive
    ? check('reconciled', 'healthy', `${stale}; ${facts.anotherServicesChange}`)
    : check('reconciled', 'progressing', stale);
}
