import { provenanceSuite } from '../__apiTests__/provenance.api.suite';

jest.setTimeout(180_000);

/**
 * Provenance (issue 25) against the simulator, whose CI pushes publish real
 * signed builds into docker-registry. What approvers see and do (the actions,
 * the approvals inbox and rejections, the overview and stuck list, a
 * Product's own approvers and quorum, replicas approving at once) runs on the
 * fakes: the `*.fakes.test.ts` files in src/__apiTests__.
 */
provenanceSuite();
