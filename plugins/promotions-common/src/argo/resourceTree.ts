import type {
  Application,
  ApplicationResourceStatus,
  ResourceNode,
} from './types';

/**
 * Argo CD 3 keeps per-resource health in the resource tree, not in `status.resources`.
 *
 * @public
 */
export function healthIsInResourceTree(app: Application | undefined): boolean {
  return app?.status?.resourceHealthSource === 'appTree';
}

function sameResource(node: ResourceNode, resource: ApplicationResourceStatus): boolean {
  return (
    (node.group ?? '') === (resource.group ?? '') &&
    node.kind === resource.kind &&
    (node.namespace ?? '') === (resource.namespace ?? '') &&
    node.name === resource.name
  );
}

/**
 * The Application with each `status.resources[]` entry's health taken from the resource tree's
 * node for it, as Argo CD 2 kept it inline — so the health rule reads one shape. A managed
 * resource without a node is not in the cluster: `Missing`, as Argo CD itself reports it.
 * `kinds`, when given, are the only kinds the nodes speak for (a source that read only the
 * Rollouts); other entries are left alone. The input is not changed.
 *
 * @public
 */
export function withResourceTreeHealth(
  app: Application,
  nodes: readonly ResourceNode[],
  kinds?: readonly string[],
): Application {
  const resources = app.status?.resources;
  if (!Array.isArray(resources)) return app;
  return {
    ...app,
    status: {
      ...app.status,
      resources: resources.map(resource => {
        if (kinds && !kinds.includes(resource.kind ?? '')) return resource;
        const node = nodes.find(candidate => sameResource(candidate, resource));
        if (!node) return { ...resource, health: { status: 'Missing' } };
        return node.health ? { ...resource, health: node.health } : resource;
      }),
    },
  };
}
