import { loadFixture, modifiedFixture } from '../../__testUtils__/fixtures';
import { events, evidence, runningPod } from '../__testUtils__/hopEvidence';
import { admissionDenial, admissionHop } from './admissionHop';
import type { PolicyReport } from './hopEvidence';

const kyvernoDenied = events('events-admission-kyverno-denied.yaml');
/** Kyverno's docs example, about a kube-system Pod. */
const docsReport = loadFixture<PolicyReport>('kyverno-policyreport-docs-example.yaml');
/** Synthetic: the docs example's report, about the storefront's ReplicaSet. */
const storefrontReport = modifiedFixture<PolicyReport>('kyverno-policyreport-docs-example.yaml', r => {
  r.scope = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'storefront-6c9f8b7d4', namespace: 'alpha-shop-test' };
});

describe('admissionDenial', () => {
  it.each([
    [
      kyvernoDenied[0].message!,
      'Kyverno policy verify-image/check-signature denied the Pod: failed to verify image registry.refplat.org/team-alpha/shop-storefront@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: .attestors[0].entries[0].keyless: no matching signatures',
    ],
    [
      'Error creating: admission webhook "gatekeeper.example.org" denied the request: replicas must be 2 or more',
      'Admission webhook gatekeeper.example.org denied the Pod: replicas must be 2 or more',
    ],
    ['Error creating: pods "storefront-1" is forbidden: exceeded quota: compute-resources', undefined],
  ])('%s', (message, said) => {
    expect(admissionDenial(message)).toBe(said);
  });
});

describe('admissionHop', () => {
  it.each([
    ['a webhook refused the ReplicaSet', { events: kyvernoDenied }, 'stalled'],
    ['the refused ReplicaSet has pods since', { events: kyvernoDenied, pods: [runningPod(true, 'storefront-6c9f8b7d4-abcde')] }, 'completed'],
    ['a pod of another ReplicaSet runs: the new one is still refused', { events: kyvernoDenied, pods: [runningPod(true, 'storefront-5d8e7a6b5-abcde')] }, 'stalled'],
    ['a PolicyReport fails the workload and no pod exists', { policyReports: [storefrontReport], pods: [] }, 'stalled'],
    ['a PolicyReport fails the workload, pods not read: maybe Audit', { policyReports: [storefrontReport] }, 'unknown'],
    ['a PolicyReport about another workload', { policyReports: [docsReport], pods: [] }, 'unknown'],
    ['pods of the workload exist', { pods: [runningPod(false)] }, 'completed'],
    ['nothing read', {}, 'unknown'],
  ])('%s: %s', (_case, overrides, mark) => {
    expect(admissionHop(evidence(overrides)).mark).toBe(mark);
  });

  it('names the Kyverno policy and rule, and the ReplicaSet to describe', () => {
    expect(admissionHop(evidence({ events: kyvernoDenied }))).toMatchObject({
      hop: 'admission',
      evidence: expect.stringMatching(/^Kyverno policy verify-image\/check-signature denied the Pod: .*no matching signatures \(seen 14 times\)$/),
      seenAt: '2025-06-01T11:58:40.000Z',
      lookAt: { kind: 'kubectl', text: 'kubectl -n alpha-shop-test describe replicaset storefront-6c9f8b7d4' },
    });
  });

  it('names the policy a PolicyReport fails, and how to list the reports', () => {
    expect(admissionHop(evidence({ policyReports: [storefrontReport], pods: [] }))).toMatchObject({
      evidence:
        'Kyverno policy disallow-host-namespaces/host-namespaces fails the workload: validation error: Sharing the host namespaces is disallowed. The fields spec.hostNetwork, spec.hostIPC, and spec.hostPID must be unset or set to `false`. rule host-namespaces failed at path /spec/hostNetwork/',
      seenAt: '2023-12-06T13:19:22.000Z',
      lookAt: { kind: 'policy', text: 'kubectl -n alpha-shop-test get policyreport -o wide' },
    });
  });
});
