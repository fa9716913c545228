import { useSharedStack } from './__testUtils__/sharedStack';
import { cliSuite } from './__testUtils__/suites/cli';
import { liveSuite } from './__testUtils__/suites/live';
import { promotionsSuite } from './__testUtils__/suites/promotions';
import { promotionsPageSuite } from './__testUtils__/suites/promotionsPage';
import { scaffolderSuite } from './__testUtils__/suites/scaffolder';

jest.setTimeout(300_000);

/**
 * Requesting promotions every way a person can (the ladder, the Promotions
 * page, the CLI, the scaffolder) and watching them merge, on one stack: the
 * Gate every 2 s, quick canaries, metrics read every 2 s. Each suite but the
 * first works on a Product of its own.
 */
const shared = useSharedStack({
  sim: { canaryStepMs: 500, syncDelayMs: 200 },
  promotions: { metrics: { frequency: { seconds: 2 } } },
  products: [{ name: 'shop-cli' }, { name: 'shop-live' }, { name: 'shop-promotions' }, { name: 'shop-scaffolder' }],
});

// First: it counts the seed's Products, before the others add theirs.
promotionsPageSuite(shared);
cliSuite(shared);
liveSuite(shared);
promotionsSuite(shared);
scaffolderSuite(shared);
