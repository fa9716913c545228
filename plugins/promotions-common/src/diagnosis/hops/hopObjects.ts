import { argoTimeMillis } from '../../argo/time';
import type { ResourceNode } from '../../argo/types';
import { belongsTo } from './workloadObjects';

/** The parent links of a resource-tree node (swagger `v1alpha1ResourceRef`). */
type TreeNode = ResourceNode & {
  parentRefs?: Array<{ kind?: string; name?: string; uid?: string }>;
  createdAt?: string;
};

/**
 * The objects of one service's rollout whose evidence the hop rules read, picked from an
 * Application's resource tree: where each hop happens.
 *
 * @public
 */
export interface HopObjects {
  rollout?: ResourceNode;
  /** The ReplicaSet of the Rollout's current pod template: the one that is rolling out. */
  replicaSet?: ResourceNode;
  /** Its Pods. */
  pods: ResourceNode[];
  /** Kyverno's reports on that ReplicaSet or its Pods. */
  policyReports: ResourceNode[];
  /** The AnalysisRun of the current pod template, else the Rollout's newest. */
  analysisRun?: ResourceNode;
  /**
   * Every HTTPRoute beside it: which carry the service's traffic their manifests say
   * (`routesOfRollout`), not their names.
   */
  routes: ResourceNode[];
}

function childrenOf(nodes: TreeNode[], parent: ResourceNode | undefined, kind: string): TreeNode[] {
  if (!parent) return [];
  return nodes.filter(
    node =>
      node.kind === kind &&
      (node.parentRefs ?? []).some(p =>
        p.uid && parent.uid ? p.uid === parent.uid : p.kind === parent.kind && p.name === parent.name,
      ),
  );
}

function newest<T extends TreeNode>(nodes: T[]): T | undefined {
  const created = (node: T) => argoTimeMillis(node.createdAt) ?? 0;
  return [...nodes].sort((a, b) => created(b) - created(a))[0];
}

/**
 * Which of the tree's nodes say where `service`'s rollout stands. `currentPodHash` (the live
 * Rollout's `status.currentPodHash`) names the ReplicaSet rolling out (`<rollout>-<hash>`) and
 * its AnalysisRuns (`<rollout>-<hash>-<revision>`); without it, the newest of each.
 *
 * @public
 */
export function hopObjects(
  nodes: ResourceNode[],
  service: string,
  currentPodHash?: string,
): HopObjects {
  const tree = nodes as TreeNode[];
  const rollout = tree.find(n => n.kind === 'Rollout' && n.name === service);
  const replicaSets = childrenOf(tree, rollout, 'ReplicaSet').filter(rs => belongsTo(rs.name, service));
  const current = currentPodHash ? `${service}-${currentPodHash}` : undefined;
  const replicaSet = replicaSets.find(rs => rs.name === current) ?? newest(replicaSets);
  const pods = childrenOf(tree, replicaSet, 'Pod');
  const runs = childrenOf(tree, rollout, 'AnalysisRun');
  return {
    rollout,
    replicaSet,
    pods,
    policyReports: [replicaSet, ...pods].flatMap(owner => childrenOf(tree, owner, 'PolicyReport')),
    analysisRun: (current && newest(runs.filter(run => belongsTo(run.name, current)))) || newest(runs),
    routes: tree.filter(n => n.kind === 'HTTPRoute'),
  };
}
