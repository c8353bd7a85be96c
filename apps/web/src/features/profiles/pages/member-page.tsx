import '../components/member-profile.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { Skeleton, SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { ApiRequestError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { useIsPhone } from '@/lib/use-media-query';
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
import { PhotoGallery } from '../components/photo-gallery';

/** What the like button of a member page is told about the profile (the match modal shows it when the like is mutual). */
interface LikedProfile {
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
  /** A member's Gift button, from features/chat (the chat's gift picker for this profile). */
  giftButton?: (profile: { id: number; name: string }) => ReactNode;
  /** A member's Report button, from features/chat (the chat's report dialog for this profile). */
  reportButton?: (profile: { id: number; name: string }) => ReactNode;
}

/** /members/{id} and /likes/m/{id}: the profile as the viewer may see it. */
export function MemberPage({ profileId, likeButton, giftButton, reportButton }: MemberPageProps) {
  const { t } = useTranslation();
  const settings = useSettings();
  const locale = useLocale();
  const user = useUser();
  const openSignup = useOpenSignup();
  const canSignUp = useCanSignUp();
  const member = useMember(profileId);
  const blockMutation = useBlock(profileId);
  const interestOrder = useInterests().data;
  const confirm = useConfirm();
  const toast = useToast();
  const isPhone = useIsPhone();
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
      <main id="main" className="container py-md-4" aria-busy="true" style={{ minHeight: '100vh' }}>
        <SkeletonRegion label={t('common.loading')} className="row g-3 g-md-4 g-lg-5">
          <div className="col-md-6 col-lg-5">
            <div className="gallery-frame">
              <Skeleton shape="rect" width="100%" height="100%" />
            </div>
          </div>
          <div className="col-md-6 col-lg-7">
            <Skeleton width="60%" height="2rem" />
            <Skeleton width="40%" />
            <div className="profile-section">
              <SkeletonText lines={3} />
            </div>
          </div>
        </SkeletonRegion>
      </main>
    );
  }
  // The card it was opened from, until the profile arrives: photo, name and place, no actions yet.
  const isPreview = member.isPlaceholderData;
  const { profile, related } = member.data;
  const place = [profile.city, countryName(profile.country, locale)].filter(Boolean).join(', ');
  // In the order the site lists them (its catalogue), as the profile form offers them; unknown ones last.
  const rank = (interest: string) => {
    const index = interestOrder?.indexOf(interest) ?? -1;
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  };
  const interests = [...profile.interests].sort((a, b) => rank(a) - rank(b));

  const handleBlock = async () => {
    const isBlocking = !profile.is_blocked_by_me;
    // Blocking shuts the door on the other member: asked first. Unblocking is not.
    if (
      isBlocking &&
      !(await confirm({
        title: t('member.blockTitle', { name: profile.name }),
        message: t('member.blockText', { name: profile.name }),
        confirmLabel: t('member.block'),
        isDanger: true,
      }))
    ) {
      return;
    }
    blockMutation.mutate(isBlocking, {
      onSuccess: () => toast.show(t(isBlocking ? 'member.blockDone' : 'member.unblockDone', { name: profile.name })),
      onError: (error) => toast.show({ message: errorText(t, error), variant: 'danger' }),
    });
  };

  // A visitor's Message and Gift lead to signup (or to the login where signing up is closed).
  const visitorAction = (label: string, testId: string) =>
    canSignUp ? (
      <Button variant="outline-primary" onClick={() => openSignup({ profileId: profile.id })} testId={testId}>
        {label}
      </Button>
    ) : (
      <LocalLink to="/login" className={buttonClass({ variant: 'outline-primary' })} data-testid={testId}>
        {label}
      </LocalLink>
    );
  const isBlockedByMe = Boolean(user) && profile.is_blocked_by_me;
  const blockButton = (
    <Button variant="light" onClick={() => void handleBlock()} isLoading={blockMutation.isPending} testId="block-toggle">
      {t('member.block')}
    </Button>
  );

  const actions = !isPreview && (
    <div className={`profile-actions${user && isPhone ? ' is-above-tabs' : ''}`} role="group" aria-label={t('member.actions')}>
      {profile.is_own ? (
        <LocalLink to="/profile" className={buttonClass({ variant: 'primary', className: 'profile-action-main' })}>
          {t('profile.edit')}
        </LocalLink>
      ) : isBlockedByMe ? (
        // Blocked by me: no Like, Message or Gift; only that I blocked them, and the way back.
        <>
          <p className="profile-action-main profile-blocked-note mb-0" role="status" data-testid="blocked-by-me">
            {t('member.blockedByMe', { name: profile.name })}
          </p>
          <Button variant="outline-dark" onClick={() => void handleBlock()} isLoading={blockMutation.isPending} testId="block-toggle">
            {t('member.unblock')}
          </Button>
        </>
      ) : (
        <>
          <div className="profile-action-main">
            {likeButton({
              id: profile.id,
              name: profile.name,
              isFictional: profile.is_fictional,
              imageUrl: profile.photos.find((p) => !p.is_locked)?.url ?? null,
            })}
          </div>
          {user ? (
            <LocalLink
              to={`/members/${profile.id}/chat`}
              className={buttonClass({ variant: 'outline-primary' })}
              data-testid="message-button"
            >
              {t('member.message')}
            </LocalLink>
          ) : (
            visitorAction(t('member.message'), 'message-button')
          )}
          {user ? giftButton?.({ id: profile.id, name: profile.name }) : visitorAction(t('chat.gift'), 'gift-button')}
          {user && !isPhone && blockButton}
        </>
      )}
    </div>
  );

  return (
    <main id="main" className="container py-md-4 member-profile" data-testid="member-profile" aria-busy={isPreview}>
      {/* On phones the action bar is the last child of this block, so it stays at the screen's bottom while any
          of the profile (photos and details) is in view. */}
      <div className="profile-body">
        <div className="row g-3 g-md-4 g-lg-5">
          <div className="col-md-6 col-lg-5">
            <PhotoGallery
              name={profile.name}
              photos={profile.photos}
              empty={!isPreview && <p className="text-body-secondary mt-2 mb-0">{t('member.noPhotos')}</p>}
            />
            {profile.hidden_photo_count > 0 && !user && (
              <div className="alert alert-info mt-3 mb-0" data-testid="login-for-photos">
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
          <div className="col-md-6 col-lg-7">
            <div className="profile-head" data-profile-id={profile.id}>
              <h1 className="h2 d-flex align-items-center gap-2 flex-wrap mb-1">
                {profile.name}, {profile.age}
                {profile.is_premium && (
                  <span className="badge text-bg-secondary fs-6" data-testid="premium-badge">
                    {t('member.premium')}
                  </span>
                )}
                {profile.is_fictional && <FictionalIcon size={22} testId="fictional-icon" />}
              </h1>
              <p className="profile-place">
                <PinIcon />
                {place}
              </p>
            </div>
            {!isPhone && actions}
            {profile.is_fictional && <p className="profile-fictional">{settings.fictional_warning}</p>}
            {profile.about && (
              <p className="profile-section fs-6" style={{ whiteSpace: 'pre-line' }}>
                {profile.about}
              </p>
            )}
            {Object.keys(profile.attributes).length > 0 && (
              <dl className="profile-section profile-facts">
                {Object.entries(profile.attributes).map(([key, value]) => (
                  <div key={key}>
                    <dt>{t(`profile.attributes.${key}.label`)}</dt>
                    <dd>{t(`profile.attributes.${key}.${value}`)}</dd>
                  </div>
                ))}
              </dl>
            )}
            {interests.length > 0 && (
              <ul className="profile-section profile-interests" data-testid="member-interests">
                {interests.map((i) => (
                  <li key={i}>{t(`interests.${i}`)}</li>
                ))}
              </ul>
            )}
            {/* Report, and on a phone Block (the bar at the bottom holds Like, Message and Gift there). */}
            {user && !isPreview && !profile.is_own && !isBlockedByMe && (
              <div className="profile-section profile-safety">
                {isPhone && blockButton}
                {reportButton?.({ id: profile.id, name: profile.name })}
              </div>
            )}
          </div>
        </div>
        {isPhone && actions}
      </div>
      {related.length > 0 && (
        <section className="mt-5 mb-3" aria-labelledby="related-title">
          <h2 className="h5" id="related-title">
            {t('member.related')}
          </h2>
          <div className="row g-2 g-md-3">
            {related.map((r) => (
              <div className="col-4 col-md-3 col-lg-2" key={r.id}>
                <LocalLink to={`/members/${r.id}`} className="photo-card photo-card-portrait" data-profile-id={r.id}>
                  {r.thumb_url ? (
                    <img src={r.thumb_url} alt="" loading="lazy" className="photo-card-photo" />
                  ) : (
                    <PhotoPlaceholder className="photo-card-photo" />
                  )}
                  <span className="photo-card-info py-2 px-2">
                    <span className="photo-card-name d-flex align-items-center gap-1 small">
                      <span className="text-truncate">
                        {r.name}, {r.age}
                      </span>
                      {r.is_fictional && <FictionalIcon size={14} />}
                    </span>
                  </span>
                </LocalLink>
              </div>
            ))}
          </div>
        </section>
      )}
    </main>
  );
}

function PinIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        d="M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="10" r="2.25" fill="currentColor" />
    </svg>
  );
}
