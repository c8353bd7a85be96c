import { type ResetDoInput, resetDoSchema } from '@amora/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { FormField } from '@/components/ui/form-field';
import { errorText } from '@/lib/error-text';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { requestPasswordReset, useResetPassword } from '../api/account';

/** /reset-password: ask for a link. The answer is the same whether or not the address has an account. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  usePageTitle(t('reset.title'));
  const request = useMutation({ mutationFn: requestPasswordReset });
  const { register, handleSubmit } = useForm<{ email: string }>();
  return (
    <main id="main" className="container py-5" style={{ maxWidth: 460 }}>
      <h1 className="h3 mb-3">{t('reset.title')}</h1>
      {request.isSuccess ? (
        <div className="alert alert-success" role="status" data-testid="reset-requested">
          {t('reset.sent')}
        </div>
      ) : (
        <>
          <p>{t('reset.intro')}</p>
          {request.error && (
            <div className="alert alert-danger" role="alert">
              {errorText(t, request.error)}
            </div>
          )}
          <form noValidate onSubmit={handleSubmit((v) => request.mutate(v.email))}>
            <div className="mb-3">
              <label className="form-label" htmlFor="reset-email">
                {t('login.email')}
              </label>
              <input id="reset-email" type="email" className="form-control" autoComplete="email" required {...register('email')} />
            </div>
            <button type="submit" className="btn btn-primary w-100" disabled={request.isPending} data-testid="reset-submit">
              {t('reset.submit')}
            </button>
          </form>
        </>
      )}
      <p className="mt-3">
        <LocalLink to="/login">{t('nav.login')}</LocalLink>
      </p>
    </main>
  );
}

/** /reset-password/do?token=…: the new password twice; ends every other session. */
export function ResetPasswordDoPage() {
  const { t } = useTranslation();
  usePageTitle(t('reset.newTitle'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const navigate = useNavigate();
  const localize = useLocalePath();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetDoInput>({ resolver: zodResolver(resetDoSchema), defaultValues: { token } });
  const fieldError = (text?: string) => (text ? t(text) : null);
  return (
    <main id="main" className="container py-5" style={{ maxWidth: 460 }}>
      <h1 className="h3 mb-3">{t('reset.newTitle')}</h1>
      {(reset.error || errors.token) && (
        <div className="alert alert-danger" role="alert" data-testid="reset-error">
          {reset.error ? errorText(t, reset.error) : t('auth.errors.linkInvalid')}{' '}
          <LocalLink to="/reset-password">{t('reset.again')}</LocalLink>
        </div>
      )}
      <form noValidate onSubmit={handleSubmit((values) => reset.mutate(values, { onSuccess: () => navigate(localize('/members')) }))}>
        <input type="hidden" {...register('token')} />
        <FormField label={t('reset.newPassword')} error={fieldError(errors.password?.message)}>
          <input id="reset-password" type="password" autoComplete="new-password" className="form-control" {...register('password')} />
        </FormField>
        <FormField label={t('reset.repeatPassword')} error={fieldError(errors.password_confirm?.message)}>
          <input
            id="reset-password-confirm"
            type="password"
            autoComplete="new-password"
            className="form-control"
            {...register('password_confirm')}
          />
        </FormField>
        <button type="submit" className="btn btn-primary w-100" disabled={reset.isPending} data-testid="reset-do-submit">
          {t('reset.save')}
        </button>
      </form>
    </main>
  );
}
