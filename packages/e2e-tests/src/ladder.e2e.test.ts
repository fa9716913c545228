import { useSharedStack } from './__testUtils__/sharedStack';
import { appSuite } from './__testUtils__/suites/app';
import { HOLIDAY_FREEZE, freezeSuite } from './__testUtils__/suites/freeze';
import { layoutSuite } from './__testUtils__/suites/layout';
import { mcpSuite } from './__testUtils__/suites/mcp';
import { PROVENANCE_PRODUCTS, provenanceSuite } from './__testUtils__/suites/provenance';
import { stallsSuite } from './__testUtils__/suites/stalls';
import { webhooksSuite } from './__testUtils__/suites/webhooks';
import { WEBHOOK_GATE } from './__testUtils__/webhookMerge';

jest.setTimeout(300_000);

/**
 * The ladder as people and assistants read it (the System and Component
 * pages, its layout on every screen, a freeze, the MCP tools, a merge on
 * GitHub arriving by webhook), on one stack whose canaries are slow enough to
 * be seen running: each step 30 s. The simulated GitHub delivers webhooks and
 * the Gate polls once an hour, so a PR merged by hand reaches the open ladder
 * through the webhook, not a poll; these suites wait on no Gate poll (a
 * request or an approval is checked at once, and its commit statuses come
 * back as webhooks). The first suite reads the seed's alpha/shop; the others a
 * Product of their own. Provenance is enforced for the provenance suite's
 * Product only, against a real docker-registry the simulator's CI pushes to.
 */
const shared = useSharedStack({
  sim: { canaryStepMs: 30_000 },
  promotions: { freezes: [HOLIDAY_FREEZE], gate: WEBHOOK_GATE },
  webhooks: true,
  products: [{ name: 'shop-layout' }, { name: 'shop-mcp' }, { name: 'shop-freeze' }, { name: 'shop-webhook' }, { name: 'shop-provenance' }, { name: 'shop-stalls' }],
  provenance: PROVENANCE_PRODUCTS,
});

appSuite(shared);
mcpSuite(shared);
freezeSuite(shared);
layoutSuite(shared);
webhooksSuite(shared);
provenanceSuite(shared);
stallsSuite(shared);
