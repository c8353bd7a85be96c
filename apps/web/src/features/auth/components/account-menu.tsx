import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Avatar } from '@/components/ui/avatar';
import { Menu } from '@/components/ui/menu';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { useLogout } from '../api/account';

/** The member's dropdown in the top bar (spec §2): My profile, Settings, Logout. */
export function AccountMenu() {
  const user = useUser();
  const { t } = useTranslation();
  const logout = useLogout();
  const navigate = useNavigate();
  const localize = useLocalePath();
  if (!user) return null;
  const handleLogout = () => logout.mutate(undefined, { onSettled: () => navigate(localize('/')) });
  return (
    <Menu
      testId="account-menu"
      buttonClassName="account-button"
      label={
        <>
          <Avatar name={user.profile.name} src={user.profile.main_image?.match} size="sm" />
          <span className="visually-hidden">
            {t('account.menu')}
            {t('punctuation.colon')}
          </span>
          <span className="account-name">{user.profile.name}</span>
        </>
      }
    >
      {(close) => (
        <>
          <li>
            <LocalLink className="dropdown-item" to="/profile" onClick={close}>
              {t('account.profile')}
            </LocalLink>
          </li>
          <li>
            <LocalLink className="dropdown-item" to="/settings" onClick={close}>
              {t('account.settings')}
            </LocalLink>
          </li>
          <li>
            <hr className="dropdown-divider" />
          </li>
          <li>
            <button
              type="button"
              className="dropdown-item"
              data-testid="logout"
              onClick={() => {
                close();
                handleLogout();
              }}
            >
              {t('account.logout')}
            </button>
          </li>
        </>
      )}
    </Menu>
  );
}
