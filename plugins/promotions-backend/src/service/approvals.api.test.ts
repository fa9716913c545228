import { productApproversSuite } from '../__apiTests__/productApprovers.api.suite';
import { provenanceSuite } from '../__apiTests__/provenance.api.suite';

jest.setTimeout(180_000);

/**
 * Approving against the simulator: a Product's own approvers and quorum, with
 * replicas racing on one database; provenance (issue 25) on a simulator of
 * its own whose CI pushes publish real signed builds into docker-registry.
 * The actions as agents call them, the approvals inbox and rejections, and
 * the organisation overview and stuck list run on the fakes
 * (actions.fakes.test.ts, approvals.fakes.test.ts, overview.fakes.test.ts).
 */
productApproversSuite();
provenanceSuite();
