import { Content, Header, Page } from '@backstage/core-components';
import { PromotionsOverview } from './PromotionsOverview';

/** The overview as a whole page of the legacy app (the new frontend system gives pages their header). */
export const PromotionsPage = () => (
  <Page themeId="tool">
    <Header title="Promotions" subtitle="Every Product's ladder, approvals, stuck deployments and delivery metrics" />
    <Content>
      <PromotionsOverview />
    </Content>
  </Page>
);
