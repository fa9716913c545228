import { changesSuite } from '../__apiTests__/changes.api.suite';
import { accessSuite } from '../__apiTests__/access.api.suite';
import { promotionRacesSuite } from '../__apiTests__/promotionRaces.api.suite';
import { guardsSuite } from '../__apiTests__/guards.api.suite';
import { promotionsSuite } from '../__apiTests__/promotions.api.suite';
import { webhooksSuite } from '../__apiTests__/webhooks.api.suite';

/**
 * The promotions API: who may do what, requesting and approving promotions,
 * the changes between stages, guards and quorums, GitHub's webhooks, and
 * replicas racing (issue 24: one test file and one simulator where there were
 * six). Every suite asks sharedSim for FAST_SIM_TIMINGS, so they run on one
 * simulator; each starts the backends it needs and stops them when it ends,
 * and each test that changes the platform works on a Product of its own.
 *
 * The order matters where a suite reads the platform as a whole (changes, which
 * used to need to run first, reads Products of its own and holds anywhere; it
 * runs after the others here to show it):
 * - access first: it counts every GitHub write the simulator receives while
 *   refusals are made, so it runs while no PR is open for its backend's Gate
 *   to adopt and write to (it leaves PRs open, waiting for approval);
 * - promotions after the suites that leave branches behind only with their
 *   PRs open: its orphan-branch test fails GitHub's branch deletes for a
 *   while, and the reconciler it starts would meet that fault, with retries,
 *   on every other idle branch first;
 * - webhooks last: its PRs merged by hand on GitHub, with no Gate running,
 *   keep their branches.
 */

// Replicas racing take rounds of paced GitHub writes; the longest the suites had.
jest.setTimeout(600_000);

promotionRacesSuite();
guardsSuite();
accessSuite();
promotionsSuite();
changesSuite();
webhooksSuite();
