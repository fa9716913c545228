import type { Diagnosis } from './diagnosisTypes';
import type { HopReading } from './hops/hopTypes';

/**
 * The hop that decides where the rollout stands: the one that stalled, else one still waiting.
 *
 * @public
 */
export function decidingHop(diagnosis: Pick<Diagnosis, 'hops'> | undefined): HopReading | undefined {
  const hops = diagnosis?.hops ?? [];
  return hops.find(h => h.mark === 'stalled') ?? hops.find(h => h.mark === 'waiting');
}
