import { useTranslation } from 'react-i18next';
import { buttonClass } from '@/components/ui/button';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';

/** In place of the signup form when the site takes no new members from this visitor (spec §6 `signups`). */
export function SignupsClosed({ onLogin }: { onLogin?: () => void }) {
  const { t } = useTranslation();
  const settings = useSettings();
  return (
    <div data-testid="signups-closed">
      <p className="text-center">{t('signup.closed', { site: settings.name })}</p>
      <p className="text-center text-body-secondary mb-2">{t('signup.haveAccount')}</p>
      <LocalLink to="/login" className={buttonClass({ size: 'lg', isBlock: true })} onClick={onLogin}>
        {t('nav.login')}
      </LocalLink>
    </div>
  );
}
