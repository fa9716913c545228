import type { ResourceNode } from '../../argo/types';
import { hopObjects } from './hopObjects';

const node = (kind: string, name: string, parent?: ResourceNode, createdAt = '2026-01-01T00:00:00Z'): ResourceNode => ({
  kind,
  name,
  uid: `uid-${name}`,
  createdAt,
  ...(parent ? { parentRefs: [{ kind: parent.kind, name: parent.name, uid: parent.uid }] } : {}),
});

const rollout = node('Rollout', 'storefront');
const stable = node('ReplicaSet', 'storefront-aaa', rollout);
const canary = node('ReplicaSet', 'storefront-bbb', rollout);
const stablePod = node('Pod', 'storefront-aaa-x1', stable);
const canaryPod = node('Pod', 'storefront-bbb-y1', canary);
const report = node('PolicyReport', 'uid-storefront-bbb', canary);
const oldRun = node('AnalysisRun', 'storefront-aaa-1', rollout);
const run = node('AnalysisRun', 'storefront-bbb-2', rollout);
const route = node('HTTPRoute', 'storefront');
const otherService = [node('Rollout', 'cart'), node('HTTPRoute', 'cart')];
const tree = [rollout, stable, canary, stablePod, canaryPod, report, oldRun, run, route, ...otherService];

describe('hopObjects', () => {
  it("picks the current pod template's ReplicaSet, its Pods and reports, its AnalysisRun, and every HTTPRoute", () => {
    expect(hopObjects(tree, 'storefront', 'bbb')).toEqual({
      rollout,
      replicaSet: canary,
      pods: [canaryPod],
      policyReports: [report],
      analysisRun: run,
      routes: [route, otherService[1]],
    });
  });

  it('without the pod hash, takes the newest ReplicaSet and AnalysisRun', () => {
    const newer = node('ReplicaSet', 'storefront-ccc', rollout, '2026-01-02T00:00:00Z');
    const newerRun = node('AnalysisRun', 'storefront-ccc-3', rollout, '2026-01-02T00:00:00Z');
    const objects = hopObjects([...tree, newer, newerRun], 'storefront');
    expect(objects.replicaSet).toBe(newer);
    expect(objects.pods).toEqual([]);
    expect(objects.analysisRun).toBe(newerRun);
  });

  it('finds nothing for a service without a Rollout in the tree', () => {
    expect(hopObjects(tree, 'checkout')).toEqual({ pods: [], policyReports: [], routes: [route, otherService[1]] });
  });
});
