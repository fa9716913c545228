import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { startPromotionsBackend } from './testBackend';

/**
 * One simulator and one backend for every test of the enclosing describe
 * block, for tests that leave the platform as they found it.
 */
export function sharedSimBackend() {
  const shared = {} as {
    sim: RunningSim;
    server: Awaited<ReturnType<typeof startPromotionsBackend>>;
  };
  beforeAll(async () => {
    shared.sim = await startPlatformSim();
    shared.server = await startPromotionsBackend(shared.sim, 'argocd');
  });
  afterAll(async () => {
    await shared.sim?.stop();
  });
  return shared;
}

/** The requests the simulator's GitHub received that change something. */
export function githubWrites(sim: RunningSim) {
  return sim.control.getRequests('github').filter(call => !['GET', 'HEAD'].includes(call.method));
}
