import type { ResourceNode, Rollout } from '../../argo/types';
import type { HTTPRoute } from './hopEvidence';

/** Argo Rollouts' Gateway API traffic router (seed 003: the controller sets the weights on the HTTPRoute). */
const GATEWAY_API_PLUGIN = 'argoproj-labs/gatewayAPI';

interface GatewayApiPluginConfig {
  httpRoute?: unknown;
  httpRoutes?: unknown;
  namespace?: unknown;
}

/** A route named `name`, or an object naming one (`{ name, namespace }`, as `httpRoutes` lists them). */
function routeName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Whether the Rollout's Gateway API plugin sets the weights on a route (by name, in the plugin's
 * namespace, else the workload's); undefined when the Rollout routes its traffic otherwise.
 */
function pluginRoutes(
  rollout: Rollout | undefined,
  namespace: string,
): ((name: string, routeNamespace: string | undefined) => boolean) | undefined {
  const plugins = rollout?.spec?.strategy?.canary?.trafficRouting?.plugins as
    | Record<string, GatewayApiPluginConfig>
    | undefined;
  const config = plugins?.[GATEWAY_API_PLUGIN];
  const listed = Array.isArray(config?.httpRoutes) ? config.httpRoutes : [];
  const names = [config?.httpRoute, ...listed].flatMap(entry => routeName(entry) ?? []);
  if (names.length === 0) return undefined;
  const pluginNamespace = typeof config?.namespace === 'string' ? config.namespace : namespace;
  return (name, routeNamespace) => names.includes(name) && (routeNamespace ?? pluginNamespace) === pluginNamespace;
}

/**
 * The Services that send traffic to the Rollout's pods: its canary's stable and canary
 * Services, its blue-green's active and preview Services; the workload's own name when the
 * Rollout names none (a basic canary, with the Service named after its workload).
 */
function rolloutServices(rollout: Rollout | undefined, workload: string): string[] {
  const canary = rollout?.spec?.strategy?.canary;
  const blueGreen = rollout?.spec?.strategy?.blueGreen as Record<string, unknown> | undefined;
  const named = [canary?.stableService, canary?.canaryService, blueGreen?.activeService, blueGreen?.previewService]
    .filter((name): name is string => typeof name === 'string' && name.length > 0);
  return named.length > 0 ? named : [workload];
}

/** Whether a rule of the route sends traffic to one of `services` (a core Service, in the route's namespace). */
function routesTo(route: HTTPRoute, services: string[], namespace: string): boolean {
  const routeNamespace = route.metadata.namespace ?? namespace;
  return (route.spec?.rules ?? []).some(rule =>
    (rule.backendRefs ?? []).some(
      ref =>
        (ref.group ?? '') === '' &&
        (ref.kind ?? 'Service') === 'Service' &&
        (ref.namespace ?? routeNamespace) === namespace &&
        services.includes(ref.name),
    ),
  );
}

/**
 * The HTTPRoutes that carry a workload's traffic, matched by what the objects say rather than by
 * a naming habit: the routes the Rollout's Gateway API traffic router names, else the routes whose
 * backendRefs name one of the Rollout's Services. `namespace` is the workload's.
 *
 * @public
 */
export function routesOfRollout(
  rollout: Rollout | undefined,
  workload: string,
  namespace: string,
  routes: HTTPRoute[],
): HTTPRoute[] {
  const named = pluginRoutes(rollout, namespace);
  if (named) return routes.filter(route => named(route.metadata.name, route.metadata.namespace));
  const services = rolloutServices(rollout, workload);
  return routes.filter(route => routesTo(route, services, namespace));
}

/**
 * Which of an Application's HTTPRoute nodes to read the manifests of: the ones the Rollout's
 * Gateway API traffic router names, else all of them (their backendRefs then say which carry
 * the workload's traffic, `routesOfRollout`).
 *
 * @public
 */
export function routeNodesOfRollout(
  rollout: Rollout | undefined,
  namespace: string,
  nodes: ResourceNode[],
): ResourceNode[] {
  const named = pluginRoutes(rollout, namespace);
  return named ? nodes.filter(node => named(node.name ?? '', node.namespace)) : nodes;
}
