import type { HopEvidence, KubeEvent, PolicyReport, PolicyReportResult } from './hopEvidence';
import type { HopReading } from './hopTypes';
import {
  belongsTo,
  describeCommand,
  eventSeenAt,
  timesSeen,
  workloadEvents,
  workloadPods,
} from './workloadObjects';

/** The API server's words when a webhook refuses an object. */
const WEBHOOK_DENIED = /admission webhook "([^"]+)" denied the request:?\s*([\s\S]*)/;
/** Kyverno's body: "resource Pod/ns/name was blocked due to the following policies\n\n<policy>:\n  <rule>: <message>". */
const KYVERNO_BLOCKED = /blocked due to the following policies\s+([\w.-]+):\s*\n\s*([\w.-]+):\s*([\s\S]*)/;

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/^'(.*)'$/, '$1');
}

/** "Kyverno policy verify-image/check-signature denied the Pod: …", or the webhook's own words. */
export function admissionDenial(message: string): string | undefined {
  const denied = WEBHOOK_DENIED.exec(message);
  if (!denied) return undefined;
  const [, webhook, body] = denied;
  const kyverno = KYVERNO_BLOCKED.exec(body);
  if (kyverno) {
    const [, policy, rule, reason] = kyverno;
    return `Kyverno policy ${policy}/${rule} denied the Pod: ${oneLine(reason)}`;
  }
  return `Admission webhook ${webhook} denied the Pod: ${oneLine(body)}`;
}

function reportedFailures(reports: PolicyReport[], workload: string): PolicyReportResult[] {
  return reports.flatMap(report =>
    (report.results ?? []).filter(
      r =>
        r.result === 'fail' &&
        (belongsTo(report.scope?.name, workload) ||
          (r.resources ?? []).some(res => belongsTo(res.name, workload))),
    ),
  );
}

function seconds(result: PolicyReportResult): string | undefined {
  const s = result.timestamp?.seconds;
  return typeof s === 'number' ? new Date(s * 1000).toISOString() : undefined;
}

/**
 * Submit workload → policy verdict (seed 000: "signing, provenance, or policy is missing").
 * A webhook's refusal shows on the ReplicaSet as `FailedCreate`; a Kyverno PolicyReport's `fail`
 * names the policy too, but in Audit mode Kyverno admits and only reports: so a report stalls the
 * hop only where no pod of the workload exists.
 */
export function admissionHop(evidence: HopEvidence): HopReading {
  const hop = 'admission' as const;
  const { namespace, workload } = evidence;
  const pods = workloadPods(evidence);
  const podsOf = (replicaSet: string) =>
    (pods ?? []).some(p => belongsTo(p.metadata.name, replicaSet));
  // A ReplicaSet that has pods got past admission since; its refusal is history.
  const refused = workloadEvents(evidence, 'ReplicaSet', 'FailedCreate')
    .map(event => ({ event, denial: admissionDenial(event.message ?? '') }))
    .find(
      (r): r is { event: KubeEvent; denial: string } =>
        r.denial !== undefined && !podsOf(r.event.involvedObject.name ?? ''),
    );
  if (refused) {
    return {
      hop,
      mark: 'stalled',
      evidence: `${refused.denial}${timesSeen(refused.event)}`,
      seenAt: eventSeenAt(refused.event),
      lookAt: {
        kind: 'kubectl',
        text: describeCommand(namespace, 'ReplicaSet', refused.event.involvedObject.name ?? workload),
      },
    };
  }
  const admitted =
    (pods !== undefined && pods.length > 0) ||
    workloadEvents(evidence, 'ReplicaSet', 'SuccessfulCreate').length > 0;
  if (admitted) return { hop, mark: 'completed' };
  const failure = reportedFailures(evidence.policyReports ?? [], workload)[0];
  if (!failure) return { hop, mark: 'unknown' };
  return {
    hop,
    // Without the pods, a reported failure may be an Audit finding on a workload that runs.
    mark: pods === undefined ? 'unknown' : 'stalled',
    evidence: `Kyverno policy ${failure.policy}/${failure.rule} fails the workload: ${oneLine(failure.message ?? '')}`,
    seenAt: seconds(failure),
    lookAt: { kind: 'policy', text: `kubectl -n ${namespace} get policyreport -o wide` },
  };
}
