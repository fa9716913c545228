import { ApplicationState } from '../applicationState';
import { HealthStatus } from '../health';
import { isoSeconds } from '../identifiers';
import { baseMeta, LiveObject, ref } from '../liveObject';
import { RolloutState } from '../rolloutState';

/** The platform's Gateway every HTTPRoute attaches to (Cilium's, seed 002 step 9). */
const GATEWAY = {
  group: 'gateway.networking.k8s.io',
  kind: 'Gateway',
  namespace: 'gateway-system',
  name: 'platform-gateway',
  sectionName: 'https',
};

const NOT_ACCEPTED = 'No listeners included by this parent ref allowed this attachment.';

/** The Environment's public hostname (seed 002: shop-alpha-dev.preprod.aws.refplat.org). */
export function stageHostname(app: ApplicationState): string {
  const { team, product, stage } = app.key;
  return `${product}-${team}-${stage}.${stage === 'prod' ? 'prod' : 'preprod'}.aws.refplat.org`;
}

/**
 * The Gateway's conditions on a service's route: accepted, unless the digest
 * running stalls at the ingress hop (`routeNotAccepted`).
 */
function routeConditions(rollout: RolloutState) {
  const since = isoSeconds(rollout.phaseChangedAt);
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    observedGeneration: 1,
    lastTransitionTime: since,
  });
  return [
    rollout.stall === 'routeNotAccepted'
      ? condition('Accepted', 'False', 'NotAllowedByListeners', NOT_ACCEPTED)
      : condition('Accepted', 'True', 'Accepted', 'Accepted HTTPRoute'),
    condition('ResolvedRefs', 'True', 'ResolvedRefs', 'Service reference is valid'),
  ];
}

/** Argo CD's health of a service's HTTPRoute (a managed resource, so it counts in the Application's health). */
export function httpRouteHealth(rollout: RolloutState): HealthStatus {
  return routeHealth(routeConditions(rollout));
}

/**
 * Argo CD's HTTPRoute health check: Degraded with the message of a parent's
 * condition that is False, Healthy when every parent accepted the route.
 */
function routeHealth(conditions: Array<{ status: string; message: string }>): HealthStatus {
  const failed = conditions.find(condition => condition.status === 'False');
  return failed ? { status: 'Degraded', message: failed.message } : { status: 'Healthy' };
}

/**
 * A service's HTTPRoute: the stage's hostname, the service's path, to its
 * Service. The Gateway accepts it, unless the digest running stalls at the
 * ingress hop (`routeNotAccepted`): Accepted=False, NotAllowedByListeners.
 */
export function httpRoute(
  app: ApplicationState,
  rollout: RolloutState,
  resourceVersion: string,
): LiveObject {
  const routeRef = ref('gateway.networking.k8s.io', 'v1', 'HTTPRoute', rollout.namespace, rollout.name);
  const conditions = routeConditions(rollout);
  const createdAt = isoSeconds(rollout.createdAt);
  return {
    ...routeRef,
    resourceVersion,
    manifest: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { ...baseMeta(routeRef, resourceVersion, createdAt, { app: rollout.name }), generation: 1 },
      spec: {
        parentRefs: [GATEWAY],
        hostnames: [stageHostname(app)],
        rules: [
          {
            matches: [{ path: { type: 'PathPrefix', value: `/${rollout.name}` } }],
            backendRefs: [{ kind: 'Service', name: rollout.name, port: 80 }],
          },
        ],
      },
      status: {
        parents: [
          {
            parentRef: GATEWAY,
            controllerName: 'io.cilium/gateway-controller',
            conditions,
          },
        ],
      },
    },
    health: routeHealth(conditions),
    createdAt,
  };
}
