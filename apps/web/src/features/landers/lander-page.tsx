import { isLanderSlug, LANDERS, MIN_AGE } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { HeartIcon } from '@/components/ui/heart-icon';
import { ErrorPage } from '@/shared/errors/error-page';
import { useOpenSignup } from '@/shared/modals/open-signup';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useCanSignUp } from '@/shared/site/use-can-sign-up';
import { usePageTitle } from '@/shared/site/use-page-title';

/**
 * Acquisition landers (/landers/{name}/{slug?}, /landers/tinderswipe). The slug (niche + locale, spec §1)
 * only labels the campaign; the page speaks the locale of its path. An unknown name or slug is the 404 page.
 */
export function LanderPage({ name: fixedName }: { name?: string }) {
  const params = useParams();
  const name = fixedName ?? params.name ?? '';
  const settings = useSettings();
  const { t } = useTranslation();
  const openSignup = useOpenSignup();
  const canSignUp = useCanSignUp();
  usePageTitle(t('landers.title', { site: settings.name }));
  const unknownSlug = params.slug !== undefined && !isLanderSlug(params.slug);
  if (!fixedName && (!(LANDERS as readonly string[]).includes(name) || unknownSlug)) return <ErrorPage status={404} />;
  return (
    <main id="main" className="hero flex-grow-1 d-flex align-items-center" data-testid={`lander-${name}`}>
      <div className="container text-center py-4" style={{ maxWidth: 760 }}>
        <span className="lander-mark mb-4" aria-hidden="true">
          <HeartIcon size={34} />
        </span>
        <h1 className="display-5 mb-3">{t('landers.title', { site: settings.name })}</h1>
        <p className="lead mx-auto mb-4">{t('landers.text', { count: settings.signup_credits })}</p>
        {!canSignUp && (
          <p className="mx-auto mb-4" data-testid="signups-closed">
            {t('signup.closed', { site: settings.name })}
          </p>
        )}
        <div className="hero-actions justify-content-center">
          {canSignUp ? (
            <button type="button" className="btn btn-light btn-lg text-primary px-5" onClick={() => openSignup()}>
              {t('home.ctaSignup')}
            </button>
          ) : (
            <LocalLink to="/login" className="btn btn-light btn-lg text-primary px-5">
              {t('home.ctaLogin')}
            </LocalLink>
          )}
        </div>
        <p className="hero-note small mt-3 mb-0">{t('home.adultsOnly', { minAge: MIN_AGE })}</p>
      </div>
    </main>
  );
}

export function TinderswipeLander() {
  return <LanderPage name="tinderswipe" />;
}
