import { serviceTruthSuite } from '../__apiTests__/serviceTruth.api.suite';
import { diagnosisSuite } from '../__apiTests__/diagnosis.api.suite';
import { stallsSuite } from '../__apiTests__/stalls.api.suite';
import { ladderSuite } from '../__apiTests__/ladder.api.suite';
import { healthShapesSuite } from '../__apiTests__/healthShapes.api.suite';
import { viewersSuite } from '../__apiTests__/viewers.api.suite';
import { borrowedHealthConfigSuite } from '../__apiTests__/borrowedHealthConfig.api.suite';
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
 * - 2 s canary steps, so that a canary soaking is seen on a busy machine: serviceTruth, diagnosis;
 * - 1 s canary steps, one simulator per Argo CD version: stalls;
 * - ladder's cost (its counts hold for the seed's two Products alone) and the simulator's first
 *   image naming: one each.
 *
 * Suites that change the platform do it on Products of their own, and every backend stops when
 * its block ends. The order used to matter (the counting suites before those that promote, and
 * serviceTruth first: a Release changed within the second its Application was last written
 * read as a stall, which mergeMaybeNotPickedUp now reads as not picked up yet). It no longer
 * does: they run here in the reverse of that order, and passed 93 of 93 twice so (issue 46).
 */

// The longest a suite had (serviceTruth: three condition waits on canaries, on a loaded 2-core machine).
jest.setTimeout(300_000);

healthStreamSuite();
borrowedHealthConfigSuite();
viewersSuite();
healthShapesSuite();
ladderSuite();
stallsSuite();
diagnosisSuite();
serviceTruthSuite();
