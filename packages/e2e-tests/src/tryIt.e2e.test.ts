import { AUTO_PROMOTER_DEMO, useSharedStack } from './__testUtils__/sharedStack';
import { approvalsSuite } from './__testUtils__/suites/approvals';
import { tryItSuite } from './__testUtils__/suites/tryIt';

jest.setTimeout(300_000);

/**
 * The README's Try it steps, on the demo world as `npm run dev` starts it
 * (AUTO_PROMOTER_DEMO): the demo's own Products (the blog, and the shop's
 * incident). Then the approvals inbox, on a Product the auto-promoter
 * leaves alone.
 */
const shared = useSharedStack({
  ...AUTO_PROMOTER_DEMO,
  products: [
    { name: 'shop-approvals', autoPromote: false },
    { name: 'shop-erin', autoPromote: false },
  ],
});

tryItSuite(shared);
approvalsSuite(shared);
