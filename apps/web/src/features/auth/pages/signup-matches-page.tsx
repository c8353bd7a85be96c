import './signup-matches.css';
import { useTranslation } from 'react-i18next';
import { buttonClass } from '@/components/ui/button';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { Skeleton, SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { useUser } from '@/shared/session/user';
import { countryName } from '@/shared/site/country-name';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useSignupMatches } from '../api/get-signup-matches';
import { ACTIVATION_MODAL_QUERY } from '../components/activation-reminder';

const SKELETON_TILES = [1, 2, 3, 4, 5, 6];

/** The way on from the signup flow: the activation reminder opens there as a modal (spec §2, api_signup_complete). */
const FLOW_END = `?${ACTIVATION_MODAL_QUERY}=1`;

/** Signup matches: up to six suggested profiles for the new member, then on to the members. */
export function SignupMatchesPage() {
  const { t } = useTranslation();
  usePageTitle(t('signupMatches.title'));
  const user = useUser();
  const locale = useLocale();
  const matches = useSignupMatches(user !== null);
  const profiles = matches.data ?? [];
  return (
    <main id="main" className="container py-4 py-md-5" style={{ maxWidth: 860 }}>
      <div className="text-center mx-auto" style={{ maxWidth: 620 }}>
        <h1 className="h3">{t('signupMatches.title')}</h1>
        <p className="lead text-body-secondary">{t('signupMatches.text')}</p>
      </div>
      {matches.isPending && user !== null && (
        <SkeletonRegion label={t('common.loading')} className="signup-matches-grid my-4">
          {SKELETON_TILES.map((tile) => (
            <div className="card signup-match" key={tile}>
              <Skeleton shape="rect" className="signup-match-photo" />
              <div className="card-body p-2">
                <SkeletonText lines={2} />
              </div>
            </div>
          ))}
        </SkeletonRegion>
      )}
      {profiles.length > 0 && (
        <section className="my-4" aria-labelledby="signup-matches-title">
          <h2 className="h5 text-center mb-3" id="signup-matches-title">
            {t('signupMatches.suggestions')}
          </h2>
          <ul className="signup-matches-grid list-unstyled mb-0" data-testid="signup-matches">
            {profiles.map((p) => (
              <li key={p.id}>
                <LocalLink
                  to={`/members/${p.id}`}
                  className="card signup-match h-100 text-decoration-none text-body"
                  data-testid="signup-match"
                  data-profile-id={p.id}
                >
                  {p.photo ? (
                    <img src={p.photo.match} alt="" className="signup-match-photo" loading="lazy" />
                  ) : (
                    <PhotoPlaceholder className="signup-match-photo" />
                  )}
                  <div className="card-body p-2 p-md-3">
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
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="signup-matches-continue text-center">
        <LocalLink to={`/members${FLOW_END}`} className={buttonClass({ size: 'lg' })} data-testid="signup-matches-continue">
          {t('signupMatches.continue')}
        </LocalLink>
      </div>
    </main>
  );
}

export { SignupMatchesPage as Component };
