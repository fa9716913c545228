import { approvalsSuite } from '../__apiTests__/approvals.api.suite';
import { overviewSuite } from '../__apiTests__/overview.api.suite';
import { productApproversSuite } from '../__apiTests__/productApprovers.api.suite';
import { provenanceSuite } from '../__apiTests__/provenance.api.suite';

jest.setTimeout(180_000);

/**
 * Approving and what approvers see, against the simulator: the approvals
 * inbox and rejections, the organisation overview and stuck list, and a
 * Product's own approvers and quorum (the actions, as agents call them, run
 * on the fakes: actions.fakes.test.ts). They all run on one
 * simulator (FAST_SIM_TIMINGS, sharedSimBackend's pool), each with a backend
 * configured its way and stopped when its block ends.
 *
 * The overview counts and names the seeded Products, on a simulator of its
 * own; it runs after the others here, which shows it holds in any order. The
 * others promote, hold and reject only on their own Products; the blocks
 * whose Gate runs (and so restores the promotions of PRs that earlier suites
 * left open) read the inbox for their own Product only.
 *
 * Provenance (issue 25) runs last, on a simulator of its own whose CI pushes
 * publish real signed builds into docker-registry.
 */
approvalsSuite();
productApproversSuite();
overviewSuite();
provenanceSuite();
