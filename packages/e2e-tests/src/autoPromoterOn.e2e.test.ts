import { AUTO_PROMOTER_DEMO, useSharedStack } from './__testUtils__/sharedStack';
import { autoPromoteSuite } from './__testUtils__/suites/autoPromote';

jest.setTimeout(300_000);

/**
 * The auto-promoter climbing a digest through the demo world's soaking
 * stages (AUTO_PROMOTER_DEMO), on a Product of its own, with the rollbacks
 * and holds that stop it. The Try it steps and the approvals inbox run on
 * the same configuration in a stack of their own (tryIt.e2e.test.ts).
 */
const shared = useSharedStack({ ...AUTO_PROMOTER_DEMO, products: [{ name: 'shop-climb' }] });

autoPromoteSuite(shared);
