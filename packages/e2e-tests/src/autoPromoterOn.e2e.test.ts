import { useSharedStack } from './__testUtils__/sharedStack';
import { approvalsSuite } from './__testUtils__/suites/approvals';
import { autoPromoteSuite } from './__testUtils__/suites/autoPromote';
import { tryItSuite } from './__testUtils__/suites/tryIt';

jest.setTimeout(300_000);

/**
 * The demo world with the auto-promoter running every 3 s and stages that
 * soak: test 15 s (a countdown people can watch), staging 2 s (approvers see
 * what they let through, soaked). The Try it steps use the demo's own
 * Products (the blog, and the shop's incident); the climb and the approvals
 * inbox each a Product of their own, the inbox's left alone by the
 * auto-promoter.
 */
const shared = useSharedStack({
  sim: { demoProducts: true, canaryStepMs: 800, syncDelayMs: 300 },
  promotions: {
    stages: ['dev', { name: 'test', soakTime: { seconds: 15 } }, 'uat', { name: 'staging', soakTime: { seconds: 2 } }, 'prod'],
    autoPromote: { enabled: true, frequency: { seconds: 3 } },
  },
  products: [{ name: 'shop-climb' }, { name: 'shop-approvals', autoPromote: false }],
});

tryItSuite(shared);
approvalsSuite(shared);
autoPromoteSuite(shared);
