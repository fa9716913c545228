import { serviceTruthSuite } from '../__apiTests__/serviceTruth.api.suite';
import { diagnosisSuite } from '../__apiTests__/diagnosis.api.suite';
import { stallsSuite } from '../__apiTests__/stalls.api.suite';
import { ladderSuite } from '../__apiTests__/ladder.api.suite';
import { healthShapesSuite } from '../__apiTests__/healthShapes.api.suite';
import { viewersSuite } from '../__apiTests__/viewers.api.suite';
import { borrowedHealthConfigSuite } from '../__apiTests__/borrowedHealthConfig.api.suite';
import { incidentsSuite } from '../__apiTests__/incidents.api.suite';
import { healthStreamSuite } from '../__apiTests__/healthStream.api.suite';

/*
 * The backend's health API tests: what the ladder reads of the platform's health and what it
 * makes of it (ladder, healthShapes, borrowedHealthConfig), what its views cost (viewers), the
 * health stream (healthStream), the incident gate on the ladder and on promotions (incidents),
 * and the per-Service verdicts and stall diagnoses (serviceTruth, diagnosis, and each hop's
 * evidence of the simulator's stalls: stalls). One file, so that
 * they share simulators (issue 24: at most 12 test files start the simulator); see
 * sharedSimBackend for the pool, one simulator per distinct set of options:
 *
 * - FAST_SIM_TIMINGS (the default shape: Argo CD 3, app repos): ladder's reads, healthShapes'
 *   default shape, viewers, borrowedHealthConfig, incidents, healthStream;
 * - FAST_SIM_TIMINGS with each other platform shape (four): healthShapes;
 * - 1 s canary steps, so that a canary soaking is seen: serviceTruth, diagnosis, stalls;
 * - ladder's cost (its counts hold for the seed's two Products alone) and the simulator's first
 *   image naming: one each.
 *
 * Suites that change the platform do it on Products of their own, and every backend stops when
 * its block ends, so that no other backend calls a simulator while a suite counts its requests,
 * streams or inbox. The order matters where a Gate would adopt what another suite left open:
 * on the FAST_SIM_TIMINGS simulator, the suites that count (ladder, healthShapes, viewers,
 * borrowedHealthConfig) run before those that promote (incidents, healthStream, whose promotions
 * all merge); serviceTruth runs before diagnosis, which leaves a prod promotion awaiting approval
 * open on their simulator.
 *
 * serviceTruth runs first, as it did in a file of its own. Its first case asserts that only
 * storefront's owners are told of a stall; but a Release that changes within the second its
 * Application was last written, before the ApplicationSet regenerated it, is diagnosed as the
 * wrong digest running, a stall (mergeNotPickedUp compares whole seconds: it takes a reconcile
 * in the merge's own second for one after it), and cart's owners are told too. A first backend
 * starting cold in a fresh process leaves that second behind; after the other suites the backend
 * starts within it, and that case failed every time (6 of 6 runs; 7 of 7 passed with it first).
 */

// The longest a suite had (serviceTruth: three condition waits on canaries, on a loaded 2-core machine).
jest.setTimeout(300_000);

serviceTruthSuite();
diagnosisSuite();
stallsSuite();
ladderSuite();
healthShapesSuite();
viewersSuite();
borrowedHealthConfigSuite();
incidentsSuite();
healthStreamSuite();
