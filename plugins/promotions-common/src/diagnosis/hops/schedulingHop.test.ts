import { loadFixture } from '../../__testUtils__/fixtures';
import { events, evidence, POD, runningPod } from '../__testUtils__/hopEvidence';
import type { KubeEvent, KubePod } from './hopEvidence';
import { schedulingHop } from './schedulingHop';

const insufficientCpu = events('events-scheduling-insufficient-cpu.yaml');
const quota = events('events-scheduling-quota-exceeded.yaml');
const backOffPod = loadFixture<KubePod>('pod-storefront-imagepullbackoff.yaml');
const pendingPod: KubePod = { metadata: { name: POD }, status: { phase: 'Pending' } };
const scheduledAt = (time: string): KubeEvent => ({
  involvedObject: { kind: 'Pod', name: POD },
  reason: 'Scheduled',
  message: `Successfully assigned alpha-shop-test/${POD} to ip-10-0-1-7`,
  lastTimestamp: time,
});

describe('schedulingHop', () => {
  it.each([
    ['no node has the cpu', { events: insufficientCpu }, 'stalled'],
    ['no node has the cpu, the pod still pending', { events: insufficientCpu, pods: [pendingPod] }, 'stalled'],
    ['scheduled after the failure', { events: [...insufficientCpu, scheduledAt('2025-06-01T11:58:00Z')] }, 'completed'],
    ['a Scheduled event older than the failure', { events: [...insufficientCpu, scheduledAt('2025-06-01T11:00:00Z')] }, 'stalled'],
    ['the pod has containers now', { events: insufficientCpu, pods: [backOffPod] }, 'completed'],
    ['the quota refuses the pods', { events: quota }, 'stalled'],
    ['a pod runs', { pods: [runningPod(true)] }, 'completed'],
    ['nothing read', {}, 'unknown'],
  ])('%s: %s', (_case, overrides, mark) => {
    expect(schedulingHop(evidence(overrides)).mark).toBe(mark);
  });

  it('says what the scheduler found, without the preemption clause', () => {
    expect(schedulingHop(evidence({ events: insufficientCpu }))).toMatchObject({
      hop: 'scheduling',
      evidence: `Pod ${POD} cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu. (seen 9 times)`,
      seenAt: '2025-06-01T11:57:02.000Z',
      lookAt: { kind: 'kubectl', text: `kubectl -n alpha-shop-test describe pod ${POD}` },
    });
  });

  it('names the ResourceQuota that refuses the pods', () => {
    expect(schedulingHop(evidence({ events: quota }))).toMatchObject({
      evidence: `ResourceQuota compute-resources refuses the pods: pods "${POD}" is forbidden: exceeded quota: compute-resources, requested: limits.memory=512Mi, used: limits.memory=1792Mi, limited: limits.memory=2Gi (seen 6 times)`,
      lookAt: { text: 'kubectl -n alpha-shop-test describe resourcequota compute-resources' },
    });
  });
});
