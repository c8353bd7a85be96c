import { type ResetDoInput, resetDoSchema } from '@amora/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { FormPage } from '@/components/ui/form-page';
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
    <FormPage
      title={t('reset.title')}
      intro={request.isSuccess ? undefined : t('reset.intro')}
      mark={request.isSuccess ? 'success' : 'brand'}
      links={<LocalLink to="/login">{t('nav.login')}</LocalLink>}
    >
      {request.isSuccess ? (
        <div className="alert alert-success mb-0" role="status" data-testid="reset-requested">
          {t('reset.sent')}
        </div>
      ) : (
        <>
          {request.error && (
            <div className="alert alert-danger" role="alert">
              {errorText(t, request.error)}
            </div>
          )}
          <form noValidate onSubmit={handleSubmit((v) => request.mutate(v.email))}>
            <FormField label={t('login.email')} className="mb-4">
              <input
                id="reset-email"
                type="email"
                className="form-control form-control-lg"
                autoComplete="email"
                required
                {...register('email')}
              />
            </FormField>
            <Button type="submit" size="lg" isBlock isLoading={request.isPending} testId="reset-submit">
              {t('reset.submit')}
            </Button>
          </form>
        </>
      )}
    </FormPage>
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
    <FormPage title={t('reset.newTitle')}>
      {(reset.error || errors.token) && (
        <div className="alert alert-danger" role="alert" data-testid="reset-error">
          {reset.error ? errorText(t, reset.error) : t('auth.errors.linkInvalid')}{' '}
          <LocalLink to="/reset-password">{t('reset.again')}</LocalLink>
        </div>
      )}
      <form noValidate onSubmit={handleSubmit((values) => reset.mutate(values, { onSuccess: () => navigate(localize('/members')) }))}>
        <input type="hidden" {...register('token')} />
        <FormField label={t('reset.newPassword')} error={fieldError(errors.password?.message)}>
          <input
            id="reset-password"
            type="password"
            autoComplete="new-password"
            className="form-control form-control-lg"
            {...register('password')}
          />
        </FormField>
        <FormField label={t('reset.repeatPassword')} error={fieldError(errors.password_confirm?.message)} className="mb-4">
          <input
            id="reset-password-confirm"
            type="password"
            autoComplete="new-password"
            className="form-control form-control-lg"
            {...register('password_confirm')}
          />
        </FormField>
        <Button type="submit" size="lg" isBlock isLoading={reset.isPending} testId="reset-do-submit">
          {t('reset.save')}
        </Button>
      </form>
    </FormPage>
  );
}
