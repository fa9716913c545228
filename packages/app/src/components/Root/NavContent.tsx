import { createContext, useContext } from 'react';
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

/**
 * The hrefs of items another item lives below (Promotions at /promotions,
 * Approvals at /promotions/approvals): such an item is highlighted on its
 * own page only, so that one item at a time is highlighted.
 */
const ParentHrefs = createContext<ReadonlySet<string>>(new Set());

function parentHrefs(items: NavContentNavItem[]): Set<string> {
  return new Set(
    items
      .map(item => item.href)
      .filter(href => items.some(other => other.href.startsWith(`${href}/`))),
  );
}

function NavItem({ href, title, icon }: NavContentNavItem) {
  const parents = useContext(ParentHrefs);
  return <SidebarItem to={href} end={parents.has(href)} icon={() => icon} text={title} />;
}

/**
 * The app plugin's default nav (one item per page that has an icon), with
 * a sign-out item at the bottom: the demo switches between its people.
 */
export function NavContent({ navItems }: NavContentComponentProps) {
  const parents = parentHrefs(navItems.clone().rest());
  const items = navItems.withComponent(NavItem);
  return (
    <ParentHrefs.Provider value={parents}>
      <Sidebar>
        {items.rest()}
        <SidebarSpace />
        <SidebarDivider />
        <SignOutItem />
      </Sidebar>
    </ParentHrefs.Provider>
  );
}
