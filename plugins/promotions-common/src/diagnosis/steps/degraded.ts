import { possessive } from '../../names';
import { formatSeconds } from '../../argo/canaryState';
import type { Diagnosis, DiagnosisLink } from '../diagnosisTypes';
import { DeploymentFacts, secondsSince, SYNCED_STEP } from './facts';
import { supplyChainFact } from './supplyChain';

interface DegradedReason {
  cause: string;
  /** The pods cannot pull the image. */
  pull?: boolean;
  look: (service: string, namespace: string) => DiagnosisLink[];
}

/** Seed 000's three stalls that end in Degraded, told apart by the health message. */
function degradedReason(message: string | undefined): DegradedReason {
  // Request rollout → no digest: the digest never reached the registry.
  if (
    message &&
    /ImagePullBackOff|ErrImagePull|manifest unknown|not found/i.test(message)
  ) {
    return {
      cause:
        'the pods cannot pull the image — the digest never reached the registry',
      pull: true,
      look: () => [
        {
          label:
            "The CI run's push step: did the build actually publish this digest?",
        },
        {
          label: 'The registry: does the digest exist in the team repository?',
        },
      ],
    };
  }
  // Policy verdict → nothing applied: the cluster cannot schedule the workload.
  if (
    message &&
    /Unschedulable|FailedScheduling|Insufficient|quota|node selector|didn't match|untolerated taint/i.test(
      message,
    )
  ) {
    return {
      cause:
        'the cluster cannot schedule the pods (capacity, quotas or node selectors)',
      look: (_service, namespace) => [
        {
          label: `Pod events: kubectl get events -n ${namespace} --sort-by=.lastTimestamp`,
        },
        {
          label: `Resource quotas: kubectl describe resourcequota -n ${namespace}`,
        },
      ],
    };
  }
  // Apply canary → no scale-up: probes are failing.
  return {
    cause: 'probes are failing — the new pods do not become ready',
    look: service => [
      { label: `${possessive(service)} readiness endpoint and its error rate` },
    ],
  };
}

/** The workload was applied but is Degraded: pods that cannot be pulled, scheduled or made ready. */
export function degraded(facts: DeploymentFacts): Diagnosis | undefined {
  const { input, application, healthStatus, healthMessage, namespace } = facts;
  const { canary, service } = input;
  if (healthStatus !== 'Degraded' && canary?.phase !== 'Degraded')
    return undefined;
  const since =
    application.healthSince ?? application.operationFinishedAt ?? facts.mergeAt;
  const degradedFor = secondsSince(since, input.now);
  const threshold = facts.thresholds.degradedStuckSeconds;
  const stuck =
    threshold <= 0 || degradedFor === undefined || degradedFor > threshold;
  const message = healthMessage ?? canary?.message;
  const reason = degradedReason(message);
  // An image that cannot be pulled: the registry check says whether it was ever pushed.
  const supplyChain = reason.pull ? supplyChainFact(input) : undefined;
  const checked = supplyChain?.verdict === 'broken' ? ` (${supplyChain.text})` : '';
  return {
    state: stuck ? 'stuck' : 'in-progress',
    code: 'degraded',
    lastCompletedStep: facts.canaryStep ?? SYNCED_STEP,
    likelyCause: `${facts.healthOf} is Degraded${degradedFor !== undefined ? ` (for ${formatSeconds(degradedFor)})` : ''}: ${reason.cause}${checked}${message ? ` — ${message}` : ''}`,
    whereToLook: [
      ...reason.look(service, namespace),
      {
        label: `kubectl describe pod -n ${namespace} -l app.kubernetes.io/name=${service}`,
      },
      ...facts.rolloutLook,
      ...facts.appLink,
      ...facts.prLink,
    ],
  };
}
