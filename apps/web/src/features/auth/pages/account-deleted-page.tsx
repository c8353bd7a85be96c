import { REACTIVATION_DAYS } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '@/lib/error-text';
import { userQueryKey } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useReactivate } from '../api/account';

/** /account-deleted: the goodbye, and with the emailed link (?token=) the way back within 14 days. */
export function AccountDeletedPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  usePageTitle(t('deleted.title'));
  const [params] = useSearchParams();
  const token = params.get('token');
  const reactivate = useReactivate();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token) queryClient.setQueryData(userQueryKey, null);
  }, [token, queryClient]);
  const navigate = useNavigate();
  const localize = useLocalePath();
  return (
    <main id="main" className="container py-5" style={{ maxWidth: 620 }} data-testid="account-deleted">
      <h1 className="h3">{t('deleted.title')}</h1>
      {token ? (
        <>
          <p className="lead">{t('deleted.reactivateIntro', { site: settings.name })}</p>
          {reactivate.error && (
            <div className="alert alert-danger" role="alert">
              {errorText(t, reactivate.error)}
            </div>
          )}
          <button
            type="button"
            className="btn btn-primary"
            disabled={reactivate.isPending}
            onClick={() => reactivate.mutate(token, { onSuccess: () => navigate(localize('/members')) })}
            data-testid="reactivate"
          >
            {t('deleted.reactivate')}
          </button>
        </>
      ) : (
        <>
          <p className="lead">{t('deleted.text', { site: settings.name, count: REACTIVATION_DAYS })}</p>
          <LocalLink to="/">{t('errors.backHome')}</LocalLink>
        </>
      )}
    </main>
  );
}

export { AccountDeletedPage as Component };
