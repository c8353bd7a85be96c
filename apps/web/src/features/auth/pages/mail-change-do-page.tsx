import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '@/lib/error-text';
import { userQueryKey } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';
import { confirmMailChange } from '../api/account';

/** /mail-change/do?token=…: confirms the new address once, on arrival. */
export function MailChangeDoPage() {
  const { t } = useTranslation();
  usePageTitle(t('mailChange.title'));
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ ok: true; email: string } | { ok: false; text: string } | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    confirmMailChange(params.get('token') ?? '').then(
      (result) => {
        setState({ ok: true, email: result.email });
        void queryClient.invalidateQueries({ queryKey: userQueryKey });
      },
      (error: unknown) => setState({ ok: false, text: errorText(t, error) }),
    );
  }, [params, queryClient, t]);
  return (
    <main id="main" className="container py-5" style={{ maxWidth: 560 }}>
      <h1 className="h3 mb-3">{t('mailChange.title')}</h1>
      {!state && <p role="status">{t('common.loading')}</p>}
      {state?.ok && (
        <div className="alert alert-success" role="status" data-testid="mail-change-done">
          {t('mailChange.done', { email: state.email })}
        </div>
      )}
      {state && !state.ok && (
        <div className="alert alert-danger" role="alert" data-testid="mail-change-error">
          {state.text}
        </div>
      )}
      <LocalLink to="/settings">{t('account.settings')}</LocalLink>
    </main>
  );
}

export { MailChangeDoPage as Component };
