import { useTranslation } from 'react-i18next';
import { AccountMenu } from '@/features/auth/components/account-menu';
import { saveLanguage } from '@/features/language/api/save-language';
import { LanguageDropdown } from '@/features/language/language-dropdown';
import { useNewLikes } from '@/shared/session/likes';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { Logo } from './logo';

/**
 * Top bar of spec §2. Visitors: logo (to index), language menu, login button. Members: logo (to members),
 * search, likes (with the new-likes badge), language menu and the account menu; messages and credits join with
 * their features.
 */
export function TopBar() {
  const { t } = useTranslation();
  const user = useUser();
  const newLikes = useNewLikes();
  return (
    <header className="navbar bg-white border-bottom shadow-sm">
      <div className="container gap-2">
        <Logo to={user ? '/members' : '/'} />
        <div className="d-flex align-items-center gap-2 ms-auto">
          {user && (
            <LocalLink to="/members" className="btn btn-link btn-sm text-decoration-none" data-testid="nav-search">
              {t('nav.search')}
            </LocalLink>
          )}
          {user && (
            <LocalLink to="/likes" className="btn btn-link btn-sm text-decoration-none" data-testid="nav-likes">
              {t('nav.likes')}
              {newLikes > 0 && (
                <span className="badge rounded-pill text-bg-primary ms-1" data-testid="likes-badge">
                  <span aria-hidden="true">{newLikes}</span>
                  <span className="visually-hidden">{t('likes.newLikes', { count: newLikes })}</span>
                </span>
              )}
            </LocalLink>
          )}
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
