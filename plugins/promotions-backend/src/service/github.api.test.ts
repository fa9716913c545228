import { platformRepoReaderSuite } from '../__apiTests__/PlatformRepoReader.suite';
import { autoPromoteSuite } from '../__apiTests__/autoPromote.api.suite';
import { deliveryMetricsSuite } from '../__apiTests__/deliveryMetrics.api.suite';
import { githubCostSuite } from '../__apiTests__/githubCost.api.suite';
import { writeBudgetSuite } from '../__apiTests__/writeBudget.api.suite';

jest.setTimeout(300_000);

/**
 * What the plugin asks of GitHub and what it does with the answers: the
 * cost of a scan and of the Gate at scale, the platform repo reader's
 * requests, delivery metrics from the branch history, and the auto-promoter
 * climbing what it reads.
 *
 * githubCost and PlatformRepoReader share the GitHub-only simulator (Argo CD's
 * loop hourly): both add the same 200 Products, no backend runs on it, and
 * each counts only the requests of the step it measures. Delivery metrics
 * read every commit and count every Product with a timeline, so they have a
 * simulator of their own with those options (sharedSim's `own`). The
 * auto-promoter moves every Product not opted out, so its tests keep a
 * simulator each (see its suite), started and stopped around the test. The
 * write budget has a simulator of its own that enforces GitHub's secondary limit.
 */
githubCostSuite();
platformRepoReaderSuite();
deliveryMetricsSuite();
autoPromoteSuite();
writeBudgetSuite();
