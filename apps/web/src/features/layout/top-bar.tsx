import { useTranslation } from 'react-i18next';
import { LanguageDropdown } from '@/features/language/language-dropdown';
import { LocalLink } from '@/features/site/local-link';
import { Logo } from './logo';

/** Top bar of spec §2. Logged-out: logo (to index), language menu and the login button. */
export function TopBar() {
  const { t } = useTranslation();
  return (
    <header className="navbar bg-white border-bottom shadow-sm">
      <div className="container gap-2">
        <Logo to="/" />
        <div className="d-flex align-items-center gap-2 ms-auto">
          <LanguageDropdown />
          <LocalLink to="/login" className="btn btn-primary btn-sm" data-testid="login-button">
            {t('nav.login')}
          </LocalLink>
        </div>
      </div>
    </header>
  );
}
