import type { ResourceNode } from '@refplat/plugin-promotions-common';

/** A listed object's metadata: what places it in a tree. */
export interface ListedObject {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    creationTimestamp?: string | Date;
    ownerReferences?: Array<{ kind?: string; name?: string; uid?: string }>;
  };
}

/** The group, version and kind of a list's items (the API server leaves them out of each item). */
export interface ListedKind {
  group: string;
  version: string;
  kind: string;
}

/**
 * An object read from the cluster as ArgoCD's resource tree shows it (swagger
 * `v1alpha1ResourceNode`): its owners as `parentRefs`, so that `hopObjects` picks a service's
 * objects from listed ones as it picks them from ArgoCD's tree.
 */
export function listedResourceNode(object: ListedObject, { group, version, kind }: ListedKind): ResourceNode {
  const { metadata } = object;
  const created = metadata?.creationTimestamp;
  return {
    group,
    version,
    kind,
    namespace: metadata?.namespace,
    name: metadata?.name,
    uid: metadata?.uid,
    parentRefs: (metadata?.ownerReferences ?? []).map(owner => ({ kind: owner.kind, name: owner.name, uid: owner.uid })),
    // client-node turns a typed object's timestamps into Dates; a custom object's stay strings.
    createdAt: created instanceof Date ? created.toISOString() : created,
  };
}
