import { changesSuite } from '../__apiTests__/changes.api.suite';
import { promotionRacesSuite } from '../__apiTests__/promotionRaces.api.suite';
import { promotionsSuite } from '../__apiTests__/promotions.api.suite';
import { webhooksSuite } from '../__apiTests__/webhooks.api.suite';

/**
 * The promotions API against the simulator: requesting and approving
 * promotions, the changes between stages, guards and quorums, GitHub's
 * webhooks, and replicas racing (who may do what runs on the fakes:
 * access.fakes.test.ts) (issue 24: one test file and one simulator where there were
 * six). Every suite asks sharedSim for FAST_SIM_TIMINGS, so they run on one
 * simulator; each starts the backends it needs and stops them when it ends,
 * and each test that changes the platform works on a Product of its own.
 *
 * Each suite works on Products of its own and scopes the faults it injects
 * to them, so the suites hold in any order: here in an order none of them
 * needed before (issue 46).
 */

// Replicas racing take rounds of paced GitHub writes; the longest the suites had.
jest.setTimeout(600_000);

webhooksSuite();
promotionsSuite();
changesSuite();
promotionRacesSuite();
