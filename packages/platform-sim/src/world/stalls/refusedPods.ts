import { isoSeconds } from '../identifiers';
import { apiVersionOf, LiveObject, ownerRef, ref, ResourceRef } from '../liveObject';
import { EventReport } from './kubeEvent';
import { StalledCanary } from './stalledCanary';

/** The Kyverno policy and rule that verify image signatures at admission. */
export const SIGNATURE_POLICY = { policy: 'verify-image', rule: 'check-signature' };

/** Kyverno's verdict on an image whose signature does not verify. */
function signatureFailure(image: string): string {
  return `failed to verify image ${image}: .attestors[0].entries[0].keyless: no matching signatures`;
}

/**
 * Why the API server refuses the canary's pods, as the ReplicaSet controller
 * reports the error (its ReplicaFailure condition; the event adds "Error creating: ").
 * Kyverno checks signatures in its mutating webhook; a pod created from a
 * ReplicaSet has no name yet when admission sees it.
 */
function refusal(canary: StalledCanary, podName: string): string | undefined {
  switch (canary.stall) {
    case 'deniedByAdmission':
      return (
        'admission webhook "mutate.kyverno.svc-fail" denied the request: \n\n' +
        `resource Pod/${canary.namespace}/ was blocked due to the following policies \n\n` +
        `${SIGNATURE_POLICY.policy}:\n  ${SIGNATURE_POLICY.rule}: '${signatureFailure(canary.image)}'\n`
      );
    case 'quotaExceeded':
      return (
        `pods "${podName}" is forbidden: exceeded quota: compute-resources, ` +
        'requested: limits.cpu=2, used: limits.cpu=8, limited: limits.cpu=8'
      );
    default:
      return undefined;
  }
}

/** How a canary ReplicaSet whose pods the API server refuses shows: no pods, a ReplicaFailure condition, FailedCreate events. */
export interface RefusedPods {
  condition: Record<string, unknown>;
  report: EventReport;
}

export function refusedPods(
  canary: StalledCanary | undefined,
  podName: string,
): RefusedPods | undefined {
  const error = canary && refusal(canary, podName);
  if (!canary || !error) return undefined;
  return {
    condition: {
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: error,
      lastTransitionTime: isoSeconds(canary.since),
    },
    report: {
      type: 'Warning',
      reason: 'FailedCreate',
      message: `Error creating: ${error}`,
      component: 'replicaset-controller',
      firstAt: canary.since,
      lastAt: canary.lastAt,
      count: canary.repeats,
    },
  };
}

/**
 * Kyverno's report on a workload its background scan found failing a policy
 * (wgpolicyk8s.io/v1alpha2, one per resource, named by the resource's uid and
 * owned by it, so Argo CD shows it as the resource's child). Rules on Pods
 * apply to a ReplicaSet's pod template as Kyverno's `autogen-` rules.
 */
export function signaturePolicyReport(
  canary: StalledCanary,
  subject: ResourceRef,
  resourceVersion: string,
): LiveObject {
  const reportRef = ref('wgpolicyk8s.io', 'v1alpha2', 'PolicyReport', subject.namespace, subject.uid);
  const createdAt = isoSeconds(canary.since);
  const message = signatureFailure(canary.image);
  const manifest = {
    apiVersion: 'wgpolicyk8s.io/v1alpha2',
    kind: 'PolicyReport',
    metadata: {
      name: reportRef.name,
      namespace: reportRef.namespace,
      uid: reportRef.uid,
      resourceVersion,
      creationTimestamp: createdAt,
      labels: { 'app.kubernetes.io/managed-by': 'kyverno' },
      ownerReferences: [{ ...ownerRef(subject), controller: undefined, blockOwnerDeletion: undefined }],
    },
    scope: {
      apiVersion: apiVersionOf(subject),
      kind: subject.kind,
      name: subject.name,
      namespace: subject.namespace,
      uid: subject.uid,
    },
    summary: { pass: 0, fail: 1, warn: 0, error: 0, skip: 0 },
    results: [
      {
        policy: SIGNATURE_POLICY.policy,
        rule: `autogen-${SIGNATURE_POLICY.rule}`,
        result: 'fail',
        message,
        scored: true,
        severity: 'high',
        category: 'Software Supply Chain Security',
        source: 'kyverno',
        timestamp: { seconds: Math.floor(canary.since / 1000), nanos: 0 },
      },
    ],
  };
  return {
    ...reportRef,
    resourceVersion,
    manifest: JSON.parse(JSON.stringify(manifest)),
    parentRefs: [subject],
    createdAt,
  };
}
