import { useTranslation } from 'react-i18next';
import { useUser } from '@/shared/session/user';
import { countryName } from '@/shared/site/country-name';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useSignupMatches } from '../api/get-signup-matches';

/** Signup matches: up to six suggested profiles for the new member, then on to the members. */
export function SignupMatchesPage() {
  const { t } = useTranslation();
  usePageTitle(t('signupMatches.title'));
  const user = useUser();
  const locale = useLocale();
  const matches = useSignupMatches(user !== null);
  const profiles = matches.data ?? [];
  return (
    <main id="main" className="container py-5" style={{ maxWidth: 860 }}>
      <div className="text-center mx-auto" style={{ maxWidth: 620 }}>
        <h1 className="h3">{t('signupMatches.title')}</h1>
        <p className="lead">{t('signupMatches.text')}</p>
      </div>
      {profiles.length > 0 && (
        <section className="my-4" aria-labelledby="signup-matches-title">
          <h2 className="h5 text-center mb-3" id="signup-matches-title">
            {t('signupMatches.suggestions')}
          </h2>
          <div className="row g-3" data-testid="signup-matches">
            {profiles.map((p) => (
              <div className="col-6 col-md-4" key={p.id}>
                <LocalLink
                  to={`/members/${p.id}`}
                  className="card h-100 shadow-sm border-0 text-decoration-none text-body"
                  data-testid="signup-match"
                >
                  {p.photo ? (
                    <img
                      src={p.photo.match}
                      alt=""
                      className="card-img-top"
                      style={{ aspectRatio: '1 / 1', objectFit: 'cover' }}
                      loading="lazy"
                    />
                  ) : (
                    <div className="card-img-top bg-light" style={{ aspectRatio: '1 / 1' }} />
                  )}
                  <div className="card-body p-2">
                    <h3 className="h6 mb-1 d-flex align-items-center gap-1">
                      {p.name}, {p.age}
                      {p.is_fictional && <FictionalIcon size={16} />}
                    </h3>
                    <p className="mb-0 small text-body-secondary">
                      {p.city ? `${p.city}, ` : ''}
                      {countryName(p.country, locale)}
                    </p>
                  </div>
                </LocalLink>
              </div>
            ))}
          </div>
        </section>
      )}
      <div className="text-center">
        <LocalLink to="/members" className="btn btn-primary btn-lg" data-testid="signup-matches-continue">
          {t('signupMatches.continue')}
        </LocalLink>
      </div>
    </main>
  );
}

export { SignupMatchesPage as Component };
