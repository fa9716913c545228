import type { HopEvidence, HTTPRoute, KubeCondition } from './hopEvidence';
import type { HopReading } from './hopTypes';
import { describeCommand } from './workloadObjects';

/** What a parent's condition being False means, by its type. */
const REFUSALS: Record<string, string> = {
  Accepted: 'is not accepted by',
  ResolvedRefs: 'cannot resolve its backends on',
};

interface Refusal {
  route: HTTPRoute;
  gateway: string;
  condition: KubeCondition;
}

function refusals(route: HTTPRoute): Refusal[] {
  return (route.status?.parents ?? []).flatMap(parent =>
    (parent.conditions ?? [])
      .filter(c => c.type in REFUSALS && c.status === 'False')
      .map(condition => ({
        route,
        gateway: [parent.parentRef.namespace, parent.parentRef.name].filter(Boolean).join('/'),
        condition,
      })),
  );
}

function accepted(route: HTTPRoute): boolean {
  const parents = route.status?.parents ?? [];
  return (
    parents.length > 0 &&
    parents.every(p =>
      Object.keys(REFUSALS).every(type =>
        (p.conditions ?? []).some(c => c.type === type && c.status === 'True'),
      ),
    )
  );
}

/**
 * Healthy pods → traffic (seed 002's ingress hop): the Gateway API writes on each HTTPRoute, per
 * parent Gateway, whether it took the route (`Accepted`) and found its backends (`ResolvedRefs`).
 */
export function routeHop(evidence: HopEvidence): HopReading {
  const hop = 'route' as const;
  const routes = evidence.routes ?? [];
  const refusal = routes.flatMap(refusals)[0];
  if (refusal) {
    const { route, gateway, condition } = refusal;
    return {
      hop,
      mark: 'stalled',
      evidence: `HTTPRoute ${route.metadata.name} ${REFUSALS[condition.type]} Gateway ${gateway} (${condition.reason ?? condition.type})${condition.message ? `: ${condition.message}` : ''}`,
      seenAt: condition.lastTransitionTime,
      lookAt: {
        kind: 'kubectl',
        text: describeCommand(route.metadata.namespace ?? evidence.namespace, 'HTTPRoute', route.metadata.name),
      },
    };
  }
  return { hop, mark: routes.length > 0 && routes.every(accepted) ? 'completed' : 'unknown' };
}
