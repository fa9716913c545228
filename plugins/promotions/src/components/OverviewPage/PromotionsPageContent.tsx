import { Content, ContentHeader } from '@backstage/core-components';
import { PromotionsOverview } from './PromotionsOverview';

/** What the organisation's promotions page holds, said under its title. */
export const PROMOTIONS_PAGE_SUBTITLE = "Every Product's ladder, approvals, stuck deployments and delivery metrics";

/**
 * The page in the new frontend system, where the app draws only a slim bar
 * (icon and breadcrumb): the title and subtitle go above the tabs, as the
 * scaffolder's pages put theirs. Content gives them the page's margins.
 */
export const PromotionsPageContent = () => (
  <Content>
    <ContentHeader title="Promotions" description={PROMOTIONS_PAGE_SUBTITLE} />
    <PromotionsOverview />
  </Content>
);
