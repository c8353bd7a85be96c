import { useTranslation } from 'react-i18next';
import { AccountMenu } from '@/features/auth/components/account-menu';
import { saveLanguage } from '@/features/language/api/save-language';
import { LanguageDropdown } from '@/features/language/language-dropdown';
import { useIsPhone } from '@/lib/use-media-query';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useRouteName } from '@/shared/site/use-route-name';
import { Logo } from './logo';
import { NavBadge } from './nav-badge';
import { activeNavItem, useMemberNav } from './nav-items';

/**
 * Top bar of spec §2, one row at every width. Visitors: logo (to index), language menu, login button. Members:
 * logo (to members), the items of MEMBER_NAV (from md up; on phones they are the bottom tab bar), language menu
 * and the account menu.
 */
export function TopBar() {
  const { t } = useTranslation();
  const user = useUser();
  const isPhone = useIsPhone();
  const items = useMemberNav();
  const active = activeNavItem(useRouteName(), items);
  return (
    <header className="top-bar" data-testid="top-bar">
      <div className="container-xl top-bar-row">
        <Logo to={user ? '/members' : '/'} />
        {user && !isPhone && (
          <nav aria-label={t('nav.main')} className="ms-auto">
            <ul className="top-nav">
              {items.map((item) => (
                <li key={item.id}>
                  <LocalLink
                    to={item.to}
                    className="top-nav-link"
                    aria-current={item === active ? 'page' : undefined}
                    data-testid={`nav-${item.id}`}
                  >
                    <span className="top-nav-long">{t(item.label)}</span>
                    <span className="top-nav-short">{t(item.tabLabel)}</span>
                    {item.badge && <NavBadge badge={item.badge} />}
                  </LocalLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className={`top-bar-end${user && !isPhone ? ' ms-0' : ''}`}>
          <LanguageDropdown onChange={user ? (locale) => void saveLanguage(locale).catch(() => {}) : undefined} />
          {user ? (
            <AccountMenu />
          ) : (
            <LocalLink to="/login" className="btn btn-primary btn-sm" data-testid="login-button">
              {t('nav.login')}
            </LocalLink>
          )}
        </div>
      </div>
    </header>
  );
}
