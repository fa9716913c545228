import { Content, Header, Page } from '@backstage/core-components';
import { PromotionsOverview } from './PromotionsOverview';
import { PROMOTIONS_PAGE_SUBTITLE } from './PromotionsPageContent';

/** The overview as a whole page of the legacy app (the new frontend system gives pages their header bar). */
export const PromotionsPage = () => (
  <Page themeId="tool">
    <Header title="Promotions" subtitle={PROMOTIONS_PAGE_SUBTITLE} />
    <Content>
      <PromotionsOverview />
    </Content>
  </Page>
);
