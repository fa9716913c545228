/** A resource type the simulated API server lists, as its discovery names it. */
export interface ServedResource {
  /** `''` for the core group (`/api/v1`). */
  group: string;
  version: string;
  plural: string;
  singularName: string;
  kind: string;
  shortNames?: string[];
}

/**
 * The live objects of each service's rollout that Argo CD's resource tree shows, served as a
 * cluster's API lists them, so that a backend reading the cluster instead of Argo CD finds
 * the same hop evidence: the Pods and ReplicaSets, Kyverno's PolicyReports, the HTTPRoutes.
 */
export const WORKLOAD_RESOURCES: ServedResource[] = [
  {
    group: '',
    version: 'v1',
    plural: 'pods',
    singularName: 'pod',
    kind: 'Pod',
    shortNames: ['po'],
  },
  {
    group: 'apps',
    version: 'v1',
    plural: 'replicasets',
    singularName: 'replicaset',
    kind: 'ReplicaSet',
    shortNames: ['rs'],
  },
  {
    group: 'wgpolicyk8s.io',
    version: 'v1alpha2',
    plural: 'policyreports',
    singularName: 'policyreport',
    kind: 'PolicyReport',
    shortNames: ['polr'],
  },
  {
    group: 'gateway.networking.k8s.io',
    version: 'v1',
    plural: 'httproutes',
    singularName: 'httproute',
    kind: 'HTTPRoute',
  },
];

/** `v1` or `apps/v1`, as a list's `apiVersion` says it. */
export function groupVersionOf(
  resource: Pick<ServedResource, 'group' | 'version'>,
): string {
  return resource.group
    ? `${resource.group}/${resource.version}`
    : resource.version;
}

/** Where the API server serves the resource's group and version: `/api/v1` or `/apis/apps/v1`. */
export function apiPathOf(
  resource: Pick<ServedResource, 'group' | 'version'>,
): string {
  return resource.group
    ? `/apis/${resource.group}/${resource.version}`
    : `/api/${resource.version}`;
}
