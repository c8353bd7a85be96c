import { type LoginInput, loginSchema } from '@amora/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { errorText } from '@/lib/error-text';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useLogin } from '../api/account';

/** Login; a member lands on /members (or where the redirect query points, on this site). */
export function LoginPage() {
  const { t } = useTranslation();
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

  const handleValid = (values: LoginInput) => login.mutate(values, { onSuccess: () => navigate(target) });
  return (
    <main id="main" className="container py-5" style={{ maxWidth: 460 }}>
      <h1 className="h3 mb-4">{t('login.title')}</h1>
      {login.error && (
        <div className="alert alert-danger" role="alert" data-testid="login-error">
          {errorText(t, login.error)}
        </div>
      )}
      <form noValidate onSubmit={handleSubmit(handleValid)} data-testid="login-form">
        <div className="mb-3">
          <label className="form-label" htmlFor="login-email">
            {t('login.email')}
          </label>
          <input id="login-email" type="email" className="form-control" autoComplete="username" required {...register('email')} />
        </div>
        <div className="mb-3">
          <label className="form-label" htmlFor="login-password">
            {t('login.password')}
          </label>
          <input
            id="login-password"
            type="password"
            className="form-control"
            autoComplete="current-password"
            required
            {...register('password')}
          />
        </div>
        <button type="submit" className="btn btn-primary w-100" disabled={login.isPending} data-testid="login-submit">
          {t('nav.login')}
        </button>
      </form>
      <p className="mt-3 mb-1">
        <LocalLink to="/reset-password">{t('login.forgot')}</LocalLink>
      </p>
      <p className="mb-0">
        {t('login.noAccount')} <LocalLink to="/signup">{t('home.ctaSignup')}</LocalLink>
      </p>
    </main>
  );
}

export { LoginPage as Component };
