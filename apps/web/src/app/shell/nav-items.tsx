import { type ComponentType, type ReactNode, useMemo } from 'react';
import { useUnreadMessages } from '@/features/chat/api/chats';
import { CreditsBadge } from '@/features/payments/components/credits-badge';
import { useNewLikes } from '@/shared/session/likes';
import { useUser } from '@/shared/session/user';
import type { RouteHandle } from '@/shared/site/use-route-name';
import { ChatIcon, CoinsIcon, HeartOutlineIcon, SearchIcon } from './nav-icons';

export interface MemberNavItem {
  /** Stable id, also the link's test id (`nav-<id>`). */
  id: string;
  /** Path without the locale prefix. */
  to: string;
  /** Catalogue key of the label in the desktop top bar (spec §2's wording). */
  label: string;
  /** Catalogue key of the shorter label under the icon in the phone tab bar. */
  tabLabel: string;
  icon: ReactNode;
  /** Route names (spec §2) on which this item is the open one. */
  routes: NonNullable<RouteHandle['name']>[];
  /**
   * The item's count badge: a hook returning the count (0 hides it), its accessible text key and its test id; or
   * a component that draws a badge of its own (the credits badge, which shows at 0).
   */
  badge?: { useCount: () => number; label: string; testId: string } | { Component: ComponentType };
  /** Another link and label for members who have not bought anything yet (Get Premium instead of Credits). */
  unpaid?: Pick<MemberNavItem, 'to' | 'label' | 'tabLabel'>;
}

/**
 * The members' navigation, in the order of spec §2: the desktop top bar and the phone tab bar both render this
 * list, so each item shows only when its feature exists; useMemberNav() gives the list as the member on the page sees it.
 */
const MEMBER_NAV: MemberNavItem[] = [
  {
    id: 'search',
    to: '/members',
    label: 'nav.search',
    tabLabel: 'nav.searchShort',
    icon: <SearchIcon />,
    routes: ['members', 'members-id'],
  },
  {
    id: 'messages',
    to: '/chats',
    label: 'nav.messages',
    tabLabel: 'nav.messages',
    icon: <ChatIcon />,
    routes: ['chats', 'chats-id', 'members-id-chat'],
    badge: { useCount: useUnreadMessages, label: 'chat.unread', testId: 'messages-badge' },
  },
  {
    id: 'likes',
    to: '/likes',
    label: 'nav.likes',
    tabLabel: 'nav.likes',
    icon: <HeartOutlineIcon />,
    routes: ['likes', 'likes-type', 'likes-m-id'],
    badge: { useCount: useNewLikes, label: 'likes.newLikes', testId: 'likes-badge' },
  },
  {
    id: 'credits',
    to: '/credits',
    label: 'credits.nav',
    tabLabel: 'credits.nav',
    icon: <CoinsIcon />,
    routes: ['credits', 'credits-repeat-order', 'credits-id-paymentmethod', 'transactions-id', 'premium'],
    badge: { Component: CreditsBadge },
    unpaid: { to: '/premium', label: 'credits.navPremium', tabLabel: 'credits.navPremiumShort' },
  },
];

/** MEMBER_NAV for the member on the page: the Credits item reads Get Premium for a member who has not paid (spec §2). */
export function useMemberNav(): MemberNavItem[] {
  const isPaid = useUser()?.paid_user ?? false;
  return useMemo(() => MEMBER_NAV.map((item) => (item.unpaid && !isPaid ? { ...item, ...item.unpaid } : item)), [isPaid]);
}

/** The item of the page on screen, if any. */
export function activeNavItem(route: RouteHandle['name'] | undefined, items: MemberNavItem[] = MEMBER_NAV): MemberNavItem | undefined {
  return route ? items.find((item) => item.routes.includes(route)) : undefined;
}
