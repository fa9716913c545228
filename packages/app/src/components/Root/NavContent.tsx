import {
  Sidebar,
  SidebarDivider,
  SidebarItem,
  SidebarSpace,
} from '@backstage/core-components';
import {
  NavContentComponentProps,
  NavContentNavItem,
} from '@backstage/plugin-app-react';
import { SignOutItem } from './SignOutItem';

function NavItem({ href, title, icon }: NavContentNavItem) {
  return <SidebarItem to={href} icon={() => icon} text={title} />;
}

/**
 * The app plugin's default nav (one item per page that has an icon), with
 * a sign-out item at the bottom: the demo switches between its people.
 */
export function NavContent({ navItems }: NavContentComponentProps) {
  const items = navItems.withComponent(NavItem);
  return (
    <Sidebar>
      {items.rest()}
      <SidebarSpace />
      <SidebarDivider />
      <SignOutItem />
    </Sidebar>
  );
}
