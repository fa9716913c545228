import { HealthStatus } from './health';
import { uidFor } from './identifiers';

/** What names one object of the cluster, as Argo CD's resource tree refers to it. */
export interface ResourceRef {
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

/** A core/v1 Event, as the API server (and Argo CD's ListResourceEvents) returns it. */
export type KubeEvent = Record<string, unknown>;

/** One object in the simulated cluster, with what Argo CD's resource tree says about it. */
export interface LiveObject extends ResourceRef {
  resourceVersion: string;
  manifest: Record<string, unknown>;
  health?: HealthStatus;
  parentRefs?: ResourceRef[];
  images?: string[];
  info?: Array<{ name: string; value: string }>;
  createdAt: string;
  /** The events the cluster recorded about this object. */
  events?: KubeEvent[];
}

export function ref(
  group: string,
  version: string,
  kind: string,
  namespace: string,
  name: string,
): ResourceRef {
  return {
    group,
    version,
    kind,
    namespace,
    name,
    uid: uidFor(kind, namespace, name),
  };
}

export function apiVersionOf(r: Pick<ResourceRef, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

export function baseMeta(
  r: ResourceRef,
  resourceVersion: string,
  createdAt: string,
  labels: Record<string, string>,
) {
  return {
    name: r.name,
    namespace: r.namespace,
    uid: r.uid,
    resourceVersion,
    creationTimestamp: createdAt,
    labels,
  };
}

export function ownerRef(owner: ResourceRef) {
  return {
    apiVersion: apiVersionOf(owner),
    kind: owner.kind,
    name: owner.name,
    uid: owner.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}
