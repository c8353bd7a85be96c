import { useTranslation } from 'react-i18next';
import { LocalLink } from '@/shared/site/local-link';
import { useRouteName } from '@/shared/site/use-route-name';
import { NavBadge } from './nav-badge';
import { activeNavItem, type MemberNavItem, useMemberNav } from './nav-items';

/**
 * The members' tab bar at the bottom of a phone screen, within thumb reach: an icon and a short label per
 * item of MEMBER_NAV, the open one marked (aria-current), each a full-height tap target. A spacer after the
 * page keeps the last content (the footer) clear of it.
 */
export function BottomTabBar({ items: given }: { items?: MemberNavItem[] }) {
  const { t } = useTranslation();
  const memberNav = useMemberNav();
  const items = given ?? memberNav;
  const active = activeNavItem(useRouteName(), items);
  return (
    <>
      <div className="tab-bar-spacer" aria-hidden="true" />
      <nav className="tab-bar" aria-label={t('nav.main')} data-testid="tab-bar">
        <ul>
          {items.map((item) => (
            <li key={item.id}>
              <LocalLink
                to={item.to}
                className="tab-bar-item"
                aria-current={item === active ? 'page' : undefined}
                data-testid={`nav-${item.id}`}
              >
                <span className="tab-bar-icon">
                  {item.icon}
                  {item.badge && <NavBadge badge={item.badge} />}
                </span>
                {t(item.tabLabel)}
              </LocalLink>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
