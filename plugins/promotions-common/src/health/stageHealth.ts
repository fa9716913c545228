import type { ServiceHealth } from './serviceHealthTypes';
import { HealthVerdict, worstVerdict } from './verdict';

/** @public */
export interface StageHealth {
  verdict: HealthVerdict;
  healthy: boolean;
  /** `service: reason`; a reason shared by several services is given once (`a, b: reason`). */
  reasons: string[];
  /** Each service's verdict. */
  services: Record<string, HealthVerdict>;
}

/**
 * A stage's health from its services': the worst verdict, and every reason prefixed with the
 * service name (a reason shared by several services, such as "ArgoCD unreachable", once).
 * No services at all is `unknown`.
 *
 * @public
 */
export function evaluateStageHealth(
  services: Record<string, ServiceHealth>,
): StageHealth {
  const names = Object.keys(services);
  if (names.length === 0) {
    return {
      verdict: 'unknown',
      healthy: false,
      reasons: ['No services to evaluate'],
      services: {},
    };
  }
  const byReason = new Map<string, string[]>();
  const verdicts: Record<string, HealthVerdict> = {};
  for (const name of names) {
    const health = services[name];
    verdicts[name] = health.verdict;
    for (const reason of health.reasons) {
      const list = byReason.get(reason) ?? [];
      if (!list.includes(name)) list.push(name);
      byReason.set(reason, list);
    }
  }
  const verdict = worstVerdict(Object.values(verdicts));
  return {
    verdict,
    healthy: verdict === 'healthy',
    reasons: [...byReason].map(
      ([reason, list]) => `${list.join(', ')}: ${reason}`,
    ),
    services: verdicts,
  };
}
