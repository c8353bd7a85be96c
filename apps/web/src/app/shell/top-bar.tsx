import { useTranslation } from 'react-i18next';
import { saveLanguage } from '@/features/language/api/save-language';
import { LanguageDropdown } from '@/features/language/language-dropdown';
import { useIsPhone } from '@/lib/use-media-query';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { BackButton } from './back-button';
import { Logo } from './logo';
import { useMemberShell } from './member-parts';

/**
 * Top bar of spec §2, one row at every width. Visitors: logo (to index), language menu, login button. Members:
 * logo (to members), the items of MEMBER_NAV (from md up; on phones they are the bottom tab bar), language menu
 * and the account menu (those two from the member parts, member-parts.ts). In the installed app a back button
 * comes first on the pages that have one (back-button.tsx).
 */
export function TopBar() {
  const { t } = useTranslation();
  const user = useUser();
  const isPhone = useIsPhone();
  const member = useMemberShell(user !== null);
  return (
    <header className="top-bar" data-testid="top-bar">
      <div className="container-xl top-bar-row">
        <BackButton />
        <Logo to={user ? '/members' : '/'} />
        {member && !isPhone && <member.MemberTopNav />}
        <div className={`top-bar-end${member && !isPhone ? ' ms-0' : ''}`}>
          <LanguageDropdown onChange={user ? (locale) => void saveLanguage(locale).catch(() => {}) : undefined} />
          {user ? (
            member && <member.AccountMenu />
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
