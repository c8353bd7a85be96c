import { useTranslation } from 'react-i18next';
import { LocalLink } from '@/features/site/local-link';
import { usePageTitle } from '@/features/site/use-page-title';

/** Signup matches: suggested profiles arrive with discovery; until then it leads on to the members. */
export function SignupMatchesPage() {
  const { t } = useTranslation();
  usePageTitle(t('signupMatches.title'));
  return (
    <main id="main" className="container py-5 text-center" style={{ maxWidth: 620 }}>
      <h1 className="h3">{t('signupMatches.title')}</h1>
      <p className="lead">{t('signupMatches.text')}</p>
      <LocalLink to="/members" className="btn btn-primary btn-lg" data-testid="signup-matches-continue">
        {t('signupMatches.continue')}
      </LocalLink>
    </main>
  );
}

export { SignupMatchesPage as Component };
