import type { RunningSim } from '@refplat/platform-sim';
import { eventually } from './testBackend';

/** `promotions.*` keys turning on the stuck sweep every second (the test backend leaves it off). */
export const STUCK_SWEEP_EVERY_SECOND = { stuckNotifications: { enabled: true, frequency: { seconds: 1 } } };

/** How often a backend on `sim` listed every Product's Applications at once, as each stuck sweep does. */
function listingsOfAllProducts(sim: RunningSim): number {
  return sim.control
    .getRequests('argocd')
    .filter(call => call.path === '/api/v1/applications')
    .filter(call => !new URLSearchParams(call.query).get('selector')?.includes('=')).length;
}

/** Until `sweeps` more sweeps (by the listings they make) have looked at every Product after now. */
export async function sweepsPassed(sim: RunningSim, sweeps = 2): Promise<void> {
  // One more than asked: a sweep under way now may have listed before the state the test set.
  const target = listingsOfAllProducts(sim) + sweeps + 1;
  await eventually(async () => (listingsOfAllProducts(sim) >= target ? true : undefined), 60_000);
}
