import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { ApiRequestError } from '@/lib/api-client';
import { ErrorPage } from '@/shared/errors/error-page';
import { useOpenSignup } from '@/shared/modals/open-signup';
import { useUser } from '@/shared/session/user';
import { useInterests } from '@/shared/site/api/get-interests';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useCanSignUp } from '@/shared/site/use-can-sign-up';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useBlock, useMember } from '../api/profile';

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" fill="currentColor" aria-hidden="true">
      <path d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 0 1 6 0v3z" />
    </svg>
  );
}

/** What the like button of a member page is told about the profile (the match modal shows it when the like is mutual). */
export interface LikedProfile {
  id: number;
  name: string;
  isFictional: boolean;
  /** The first photo the viewer may see. */
  imageUrl: string | null;
}

export interface MemberPageProps {
  /** The profile's id from the path; 0 when the path's id is not a number. */
  profileId: number;
  /** The like button, from features/likes (app/pages/member-page puts it in). */
  likeButton: (profile: LikedProfile) => ReactNode;
}

/** /members/{id} and /likes/m/{id}: the profile as the viewer may see it. */
export function MemberPage({ profileId, likeButton }: MemberPageProps) {
  const { t } = useTranslation();
  const settings = useSettings();
  const locale = useLocale();
  const user = useUser();
  const openSignup = useOpenSignup();
  const canSignUp = useCanSignUp();
  const member = useMember(profileId);
  const blockMutation = useBlock(profileId);
  const interestOrder = useInterests().data;
  usePageTitle(member.data?.profile.name ?? t('members.title'));

  if (!profileId) return <ErrorPage status={404} />;
  if (member.error instanceof ApiRequestError) {
    if (member.error.code === 'blocked') {
      return (
        <main id="main" className="container py-5 text-center" data-testid="blocked-message">
          <h1 className="h4">{t('member.blockedBy', { name: String(member.error.body.name ?? '') })}</h1>
        </main>
      );
    }
    return <ErrorPage status={member.error.status === 404 ? 404 : 500} />;
  }
  if (!member.data) {
    // The main photo's place, kept while the profile loads, and at least a screen: the footer stays below the
    // first screen, so it does not move when the profile comes.
    return (
      <main id="main" className="container py-4" aria-busy="true" style={{ minHeight: '100vh' }}>
        <div className="row g-4">
          <SkeletonRegion label={t('common.loading')} className="col-lg-7">
            <div style={{ aspectRatio: '4 / 5' }}>
              <Skeleton shape="rect" width="100%" height="100%" />
            </div>
          </SkeletonRegion>
        </div>
      </main>
    );
  }
  // The card it was opened from, until the profile arrives: photo, name, age and place, no actions yet.
  const isPreview = member.isPlaceholderData;
  const { profile, related } = member.data;
  const place = [profile.city, countryName(profile.country, locale)].filter(Boolean).join(', ');
  // In the order the site lists them (its catalogue), as the profile form offers them; unknown ones last.
  const rank = (interest: string) => {
    const index = interestOrder?.indexOf(interest) ?? -1;
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  const interests = [...profile.interests].sort((a, b) => rank(a) - rank(b));

  return (
    <main id="main" className="container py-4" data-testid="member-profile" aria-busy={isPreview}>
      <div className="row g-4">
        <div className="col-lg-7">
          <div className="row g-2">
            {profile.photos.map((photo, index) => (
              <div className={index === 0 ? 'col-12' : 'col-4'} key={photo.id}>
                <div
                  className="position-relative rounded overflow-hidden bg-light"
                  data-testid={photo.is_locked ? 'locked-photo' : 'open-photo'}
                >
                  <img
                    src={index === 0 ? photo.url : photo.thumb_url}
                    alt={t('member.photoOf', { name: profile.name })}
                    className="w-100"
                    style={{ aspectRatio: '4 / 5', objectFit: 'cover' }}
                    // The main photo is the page's largest paint: asked for before anything else.
                    loading={index === 0 ? 'eager' : 'lazy'}
                    fetchPriority={index === 0 ? 'high' : undefined}
                  />
                  {photo.is_locked && (
                    <div
                      className="position-absolute top-0 start-0 w-100 h-100 d-flex flex-column align-items-center justify-content-center text-white"
                      style={{ background: 'rgba(0,0,0,.45)' }}
                    >
                      <LockIcon />
                      <span className="small fw-semibold mt-1 text-center px-1">{t('member.premiumOnly')}</span>
                    </div>
                  )}
                </div>
              </div>
            ))}
            {profile.photos.length === 0 && !isPreview && <p className="text-body-secondary">{t('member.noPhotos')}</p>}
          </div>
          {profile.hidden_photo_count > 0 && !user && (
            <div className="alert alert-info mt-3" data-testid="login-for-photos">
              {t('member.loginForPhotos', { count: profile.hidden_photo_count })}{' '}
              {canSignUp && (
                <>
                  <button type="button" className="btn btn-link p-0 align-baseline" onClick={() => openSignup({ profileId: profile.id })}>
                    {t('home.ctaSignup')}
                  </button>{' '}
                  ·{' '}
                </>
              )}
              <LocalLink to="/login">{t('nav.login')}</LocalLink>
            </div>
          )}
        </div>
        <div className="col-lg-5">
          <h1 className="h3 d-flex align-items-center gap-2 flex-wrap">
            {profile.name}, {profile.age}
            {profile.is_premium && (
              <span className="badge text-bg-secondary" data-testid="premium-badge">
                {t('member.premium')}
              </span>
            )}
            {profile.is_fictional && <FictionalIcon size={22} testId="fictional-icon" />}
          </h1>
          <p className="text-body-secondary">{place}</p>
          {profile.is_fictional && <p className="small border-start border-3 border-secondary ps-2">{settings.fictional_warning}</p>}
          {profile.about && <p style={{ whiteSpace: 'pre-line' }}>{profile.about}</p>}
          {Object.keys(profile.attributes).length > 0 && (
            <dl className="row small">
              {Object.entries(profile.attributes).map(([key, value]) => (
                <div className="col-6 mb-2" key={key}>
                  <dt className="fw-normal text-body-secondary">{t(`profile.attributes.${key}.label`)}</dt>
                  <dd className="mb-0">{t(`profile.attributes.${key}.${value}`)}</dd>
                </div>
              ))}
            </dl>
          )}
          {interests.length > 0 && (
            <ul className="list-inline" data-testid="member-interests">
              {interests.map((i) => (
                <li key={i} className="list-inline-item badge rounded-pill text-bg-light border">
                  {t(`interests.${i}`)}
                </li>
              ))}
            </ul>
          )}
          {!isPreview &&
            (profile.is_own ? (
              <LocalLink to="/profile" className="btn btn-outline-primary">
                {t('profile.edit')}
              </LocalLink>
            ) : (
              <div className="d-flex flex-wrap align-items-start gap-2">
                {likeButton({
                  id: profile.id,
                  name: profile.name,
                  isFictional: profile.is_fictional,
                  imageUrl: profile.photos.find((p) => !p.is_locked)?.url ?? null,
                })}
                {user && (
                  <button
                    type="button"
                    className="btn btn-outline-dark btn-sm"
                    onClick={() => blockMutation.mutate(!profile.is_blocked_by_me)}
                    disabled={blockMutation.isPending}
                    data-testid="block-toggle"
                  >
                    {profile.is_blocked_by_me ? t('member.unblock') : t('member.block')}
                  </button>
                )}
              </div>
            ))}
        </div>
      </div>
      {related.length > 0 && (
        <section className="mt-5" aria-labelledby="related-title">
          <h2 className="h5" id="related-title">
            {t('member.related')}
          </h2>
          <div className="row g-3">
            {related.map((r) => (
              <div className="col-6 col-md-4 col-lg-2" key={r.id}>
                <LocalLink to={`/members/${r.id}`} className="card h-100 text-decoration-none text-body border-0 shadow-sm">
                  {r.thumb_url ? (
                    <img src={r.thumb_url} alt="" className="card-img-top" style={{ aspectRatio: '4 / 5', objectFit: 'cover' }} />
                  ) : (
                    <PhotoPlaceholder className="card-img-top" style={{ aspectRatio: '4 / 5' }} />
                  )}
                  <div className="card-body p-2 small">
                    {r.name}, {r.age}
                  </div>
                </LocalLink>
              </div>
            ))}
          </div>
        </section>
      )}
    </main>
  );
}
