import { useSharedStack } from './__testUtils__/sharedStack';
import { appSuite } from './__testUtils__/suites/app';
import { HOLIDAY_FREEZE, freezeSuite } from './__testUtils__/suites/freeze';
import { layoutSuite } from './__testUtils__/suites/layout';
import { mcpSuite } from './__testUtils__/suites/mcp';

jest.setTimeout(300_000);

/**
 * The ladder as people and assistants read it (the System and Component
 * pages, its layout on every screen, a freeze, the MCP tools), on one stack
 * whose canaries are slow enough to be seen running: each step 30 s. The
 * first suite reads the seed's alpha/shop; the others a Product of their own.
 */
const shared = useSharedStack({
  sim: { canaryStepMs: 30_000 },
  promotions: { freezes: [HOLIDAY_FREEZE] },
  products: [{ name: 'shop-layout' }, { name: 'shop-mcp' }, { name: 'shop-freeze' }],
});

appSuite(shared);
mcpSuite(shared);
freezeSuite(shared);
layoutSuite(shared);
