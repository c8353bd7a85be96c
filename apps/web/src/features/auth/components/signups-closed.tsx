import { useTranslation } from 'react-i18next';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';

/** In place of the signup form when the site takes no new members from this visitor (spec §6 `signups`). */
export function SignupsClosed({ onLogin }: { onLogin?: () => void }) {
  const { t } = useTranslation();
  const settings = useSettings();
  return (
    <div data-testid="signups-closed">
      <p>{t('signup.closed', { site: settings.name })}</p>
      <p className="mb-0">
        {t('signup.haveAccount')}{' '}
        <LocalLink to="/login" className="btn btn-primary ms-1" onClick={onLogin}>
          {t('nav.login')}
        </LocalLink>
      </p>
    </div>
  );
}
