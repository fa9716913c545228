import { overviewSuite } from '../__apiTests__/overview.api.suite';
import { productApproversSuite } from '../__apiTests__/productApprovers.api.suite';
import { provenanceSuite } from '../__apiTests__/provenance.api.suite';

jest.setTimeout(180_000);

/**
 * Approving and what approvers see, against the simulator: the organisation
 * overview and stuck list, and a Product's own approvers and quorum. The
 * actions as agents call them, and the approvals inbox and rejections, run
 * on the fakes (actions.fakes.test.ts, approvals.fakes.test.ts).
 *
 * The overview counts and names the seeded Products, on a simulator of its
 * own; it runs after the Product approvers here, which shows it holds in any
 * order. Those promote only on their own Products, and read the inbox for
 * their own Product only.
 *
 * Provenance (issue 25) runs on a simulator of its own whose CI pushes
 * publish real signed builds into docker-registry.
 */
productApproversSuite();
overviewSuite();
provenanceSuite();
