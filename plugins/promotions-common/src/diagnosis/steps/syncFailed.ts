import { syncDidNotApply, syncOperationState } from '../../health/argoFacts';
import type { Diagnosis } from '../diagnosisTypes';
import type { DeploymentFacts } from './facts';
import { SupplyChainFact, supplyChainFact } from './supplyChain';

const ADMISSION_PATTERN =
  /admission webhook|denied the request|kyverno|policy|signature|attestation/i;

/** Why admission refused: the registry's checked fact where there is one, else the usual suspects. */
function admissionCause(message: string, supplyChain: SupplyChainFact | undefined): string {
  if (supplyChain?.verdict === 'broken') {
    return `ArgoCD's sync failed because admission refused the workload, and its supply chain is broken: ${supplyChain.text}. Admission said: ${message}`;
  }
  if (supplyChain?.verdict === 'sound') {
    return `ArgoCD's sync failed because admission refused the workload, though ${supplyChain.text}: look at the admission policy itself. Admission said: ${message}`;
  }
  return `ArgoCD's sync failed because admission refused the workload (signing, provenance or a policy is missing): ${message}`;
}

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
  const likelyCause = admission
    ? admissionCause(message, supplyChainFact(facts.input))
    : `ArgoCD's last sync ${operation}, so ${appName} is not running the new Release${message ? `: ${message}` : ''}.`;
  return {
    state: 'stuck',
    code: 'merged-out-of-sync',
    lastCompletedStep: facts.mergedStep,
    likelyCause,
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
