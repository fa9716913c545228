/** Argo CD's health statuses, from best to worst (the order Argo CD uses to aggregate). */
export const HEALTH_ORDER = [
  'Healthy',
  'Suspended',
  'Progressing',
  'Missing',
  'Degraded',
  'Unknown',
] as const;

export type HealthStatusCode = (typeof HEALTH_ORDER)[number];

export interface HealthStatus {
  status: string;
  message?: string;
}

/** An Application's health is the worst health of its resources (Healthy when it has none). */
export function worstHealth(healths: HealthStatus[]): HealthStatus {
  let worst: HealthStatus = { status: 'Healthy' };
  for (const health of healths) {
    if (rank(health.status) > rank(worst.status)) worst = health;
  }
  return worst;
}

function rank(status: string): number {
  const index = HEALTH_ORDER.indexOf(status as HealthStatusCode);
  return index < 0 ? HEALTH_ORDER.length - 1 : index;
}
