import { type LoginInput, loginSchema } from '@amora/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { FormPage } from '@/components/ui/form-page';
import { ApiRequestError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useLogin } from '../api/account';

/**
 * The text of a refused login: a suspension names its end in the reader's language and time (a ban goes to the
 * ban page instead).
 */
function loginErrorText(t: ReturnType<typeof useTranslation>['t'], language: string, error: unknown): string {
  if (error instanceof ApiRequestError && error.code === 'suspended' && typeof error.body.until === 'string') {
    const until = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(error.body.until));
    return t('auth.errors.suspended', { until });
  }
  return errorText(t, error);
}

/** Login; a member lands on /members (or where the redirect query points, on this site). */
export function LoginPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('login.title'));
  const user = useUser();
  const login = useLogin();
  const navigate = useNavigate();
  const localize = useLocalePath();
  const [params] = useSearchParams();
  const { register, handleSubmit } = useForm<LoginInput>({ resolver: zodResolver(loginSchema) });
  const target =
    params.get('redirect')?.startsWith('/') && !params.get('redirect')?.startsWith('//')
      ? (params.get('redirect') as string)
      : localize('/members');
  if (user && !login.isSuccess) return <Navigate to={localize('/members')} replace />;

  const handleValid = (values: LoginInput) =>
    login.mutate(values, {
      onSuccess: () => navigate(target),
      // A banned member is shown the page that says what a ban means and where to turn.
      onError: (error) => {
        if (error instanceof ApiRequestError && error.code === 'banned') navigate(localize('/pages/ban'));
      },
    });
  return (
    <FormPage
      title={t('login.title')}
      links={
        <>
          <LocalLink to="/reset-password">{t('login.forgot')}</LocalLink>
          <p className="mb-0">
            {t('login.noAccount')} <LocalLink to="/signup">{t('home.ctaSignup')}</LocalLink>
          </p>
        </>
      }
    >
      {login.error && (
        <div className="alert alert-danger" role="alert" data-testid="login-error">
          {loginErrorText(t, i18n.language, login.error)}
        </div>
      )}
      <form noValidate onSubmit={handleSubmit(handleValid)} data-testid="login-form">
        <FormField label={t('login.email')}>
          <input
            id="login-email"
            type="email"
            className="form-control form-control-lg"
            autoComplete="username"
            required
            {...register('email')}
          />
        </FormField>
        <FormField label={t('login.password')} className="mb-4">
          <input
            id="login-password"
            type="password"
            className="form-control form-control-lg"
            autoComplete="current-password"
            required
            {...register('password')}
          />
        </FormField>
        <Button type="submit" size="lg" isBlock isLoading={login.isPending} testId="login-submit">
          {t('nav.login')}
        </Button>
      </form>
    </FormPage>
  );
}

export { LoginPage as Component };
