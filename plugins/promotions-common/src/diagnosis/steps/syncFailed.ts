import { syncDidNotApply, syncOperationState } from '../../health/argoFacts';
import type { Diagnosis } from '../diagnosisTypes';
import type { DeploymentFacts } from './facts';

const ADMISSION_PATTERN =
  /admission webhook|denied the request|kyverno|policy|signature|attestation/i;

/**
 * Submit workload → no verdict: the last sync failed, usually because admission (Kyverno)
 * refused the workload for a missing signature, provenance or policy.
 */
export function syncFailed(facts: DeploymentFacts): Diagnosis | undefined {
  const { application, appName, namespace } = facts;
  const operation = syncOperationState(application.operationPhase);
  if (!syncDidNotApply(operation)) return undefined;
  const message = application.operationMessage ?? application.healthMessage;
  const admission = message !== undefined && ADMISSION_PATTERN.test(message);
  return {
    state: 'stuck',
    code: 'merged-out-of-sync',
    lastCompletedStep: facts.mergedStep,
    likelyCause: admission
      ? `ArgoCD's sync failed because admission refused the workload (signing, provenance or a policy is missing): ${message}`
      : `ArgoCD's last sync ${operation}, so ${appName} is not running the new Release${message ? `: ${message}` : ''}.`,
    whereToLook: [
      ...facts.appLink,
      ...(admission
        ? [
            {
              label: `Admission controller (Kyverno) logs and policy reports: kubectl get policyreports -n ${namespace}`,
            },
            {
              label:
                'The supply-chain policy: is the digest signed and attested by the build-sign pipeline?',
            },
          ]
        : [
            {
              label: `The sync operation's result in ${appName} (kubectl get application ${appName} -n argocd -o yaml)`,
            },
          ]),
      { label: `kubectl get events -n ${namespace} --sort-by=.lastTimestamp` },
      ...facts.prLink,
    ],
  };
}
