import { Content, Header, Page } from '@backstage/core-components';
import { ApprovalsInbox } from './ApprovalsInbox';

/** The inbox as a whole page of the legacy app (the new frontend system gives pages their header). */
export const ApprovalsPage = () => (
  <Page themeId="tool">
    <Header title="Approvals" subtitle="Promotions waiting for a release-approver or an incident commander" />
    <Content>
      <ApprovalsInbox />
    </Content>
  </Page>
);
