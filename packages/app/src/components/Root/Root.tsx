import { PropsWithChildren } from 'react';
import {
  Sidebar,
  SidebarDivider,
  SidebarItem,
  SidebarPage,
  SidebarSpace,
} from '@backstage/core-components';
import CategoryIcon from '@material-ui/icons/Category';
import { NotificationsSidebarItem } from '@backstage/plugin-notifications';
import { SignOutItem } from './SignOutItem';

export const Root = ({ children }: PropsWithChildren<{}>) => (
  <SidebarPage>
    <Sidebar>
      <SidebarItem icon={CategoryIcon} to="catalog" text="Catalog" />
      <NotificationsSidebarItem />
      <SidebarDivider />
      <SidebarSpace />
      <SidebarDivider />
      <SignOutItem />
    </Sidebar>
    {children}
  </SidebarPage>
);
