import { admissionHop } from './admissionHop';
import { analysisWindowHop } from './analysisWindowHop';
import type { HopEvidence } from './hopEvidence';
import type { HopReading } from './hopTypes';
import { imagePullHop } from './imagePullHop';
import { probesHop } from './probesHop';
import { registryHop } from './registryHop';
import { routeHop } from './routeHop';
import { schedulingHop } from './schedulingHop';

/** Each hop's rule reads the whole evidence and speaks only of its hop. */
type HopRule = (evidence: HopEvidence) => HopReading;

/** Seed 000's call sequence, then seed 002's ingress hop: the order the hops happen in. */
const HOPS: ReadonlyArray<HopRule> = [
  registryHop,
  admissionHop,
  schedulingHop,
  imagePullHop,
  probesHop,
  analysisWindowHop,
  routeHop,
];

/**
 * Every hop with its mark, read where it happens. Seed 000: "find the last message that
 * completed, and the failure is almost always in the next hop" — so the first hop that stalled
 * (or is still waiting) is the answer, and the hops after it are not reached, whatever stale
 * evidence they have.
 *
 * @public
 */
export function diagnoseHops(evidence: HopEvidence): HopReading[] {
  const readings = HOPS.map(rule => rule(evidence));
  const stop = readings.findIndex(r => r.mark === 'stalled' || r.mark === 'waiting');
  return readings.map((reading, i) =>
    stop >= 0 && i > stop ? { hop: reading.hop, mark: 'not-reached' } : reading,
  );
}

/**
 * The hop the rollout stalled at, and the last one before it that completed.
 *
 * @public
 */
export function firstStalledHop(
  readings: HopReading[],
): { stalled: HopReading; lastCompleted?: HopReading } | undefined {
  const at = readings.findIndex(r => r.mark === 'stalled');
  if (at < 0) return undefined;
  const lastCompleted = readings
    .slice(0, at)
    .reverse()
    .find(r => r.mark === 'completed');
  return { stalled: readings[at], lastCompleted };
}
