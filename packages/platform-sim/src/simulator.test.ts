import { argocdSuite } from './argocd/argocd.suite';
import { argocdShapesSuite } from './argocd/argocdShapes.suite';
import { controlSuite } from './control/control.suite';
import { githubBehavioursSuite } from './github/githubBehaviours.suite';
import { githubInTheWildSuite } from './github/githubInTheWild.suite';
import { promotionFlowSuite } from './github/promotionFlow.suite';
import { kubernetesSuite } from './kubernetes/kubernetes.suite';
import { seedSnapshotSuite } from './seed/seedSnapshot.suite';
import { supplyChainSuite } from './registry/supplyChain.suite';
import { webhooksSuite } from './webhooks/webhooks.suite';
import { reconcileSuite } from './world/reconcile.suite';
import { stallsSuite } from './world/stalls.suite';

/*
 * Every test of the simulator that starts one: its APIs (GitHub, Argo CD,
 * Kubernetes, webhooks, the /_sim controls), its Application shapes, its
 * reconcile loop, CI's supply chain with a registry and its seed snapshots.
 * One test file, so that a simulator is seeded once per image naming (the
 * seed snapshot is the process's) and suites asking for the same options share one (fileTestSim in
 * __testUtils__/testSim.ts), stopped after the last test (issue 24: at most
 * 12 test files start the simulator). Pure unit tests stay in files of their own.
 *
 * Order matters where suites share a simulator:
 * - the default options: kubernetes counts the seeded Applications and
 *   control reads them all at rest, before control adds alpha/shop-two;
 *   githubBehaviours and promotionFlow change different alpha/shop Releases
 *   (staging, test); webhooks and stalls work on Products of their own;
 * - the platform-repo shape with an observable sync delay: the Argo CD API
 *   suite reads the seeded platform before the reconcile loop's suite changes it;
 * - the stepped seeds' shape: Argo CD 3.x resource health reads it before the
 *   app-repo Applications' tests step it.
 * The seed snapshots' suite comes last: it replaces the process's snapshot of
 * the default seed with a stale one, and starts two simulators of its own.
 */

// The largest timeout the suites had (seed snapshots: two fresh seeds on a loaded machine).
jest.setTimeout(120_000);

kubernetesSuite();
controlSuite();
githubBehavioursSuite();
promotionFlowSuite();
webhooksSuite();
stallsSuite();
githubInTheWildSuite();
argocdSuite();
argocdShapesSuite();
reconcileSuite();
supplyChainSuite();
seedSnapshotSuite();
