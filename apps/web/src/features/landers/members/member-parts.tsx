import { type MemberLandingProfile, MIN_AGE } from '@amora/contracts/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { LanderFictionalIcon, LanderLink, useLanderSettings } from '../lander-site';

/** The signup about this profile (/members/{id}/signup), with the landing's query (its tracking) kept. */
const signupPathOf = (profileId: number, query: string) => `/members/${profileId}/signup${query}`;

/**
 * The way on from a member landing: the signup with a first message to this profile, or the login when this
 * visitor may not sign up (spec §6 `signups`). A plain link: the signup is the app's page, loaded anew.
 */
export function MemberCta({
  profile,
  canSignUp,
  query,
  className,
  onClick,
  children,
}: {
  profile: MemberLandingProfile;
  canSignUp: boolean;
  query: string;
  className: string;
  onClick?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation(['landers', 'common']);
  if (!canSignUp) {
    return (
      <LanderLink to="/login" className={className} data-testid="member-landing-login">
        {t('common:home.ctaLogin')}
      </LanderLink>
    );
  }
  return (
    <LanderLink to={signupPathOf(profile.id, query)} className={className} onClick={onClick} data-testid="member-landing-cta">
      {children ?? t('member.cta', { name: profile.name })}
    </LanderLink>
  );
}

/** Said above the login link when this visitor may not sign up (spec §6 `signups`). */
export function SignupsClosedNote({ className }: { className: string }) {
  const { t } = useTranslation('common');
  const settings = useLanderSettings();
  return (
    <p className={className} data-testid="signups-closed">
      {t('signup.closed', { site: settings.name })}
    </p>
  );
}

/** The profile's main photo in a frame the layout sizes (4:5 crop, cover), or the drawn placeholder. */
export function MemberPhoto({
  profile,
  className,
  sizes,
  isLcp = true,
}: {
  profile: MemberLandingProfile;
  className: string;
  sizes: string;
  /** The page's largest paint: fetched first, never lazily. */
  isLcp?: boolean;
}) {
  const { t } = useTranslation('landers');
  if (!profile.photo) return <PhotoPlaceholder className={className} />;
  return (
    <img
      className={className}
      src={profile.photo.src}
      srcSet={profile.photo.srcSet}
      sizes={sizes}
      width={profile.photo.width}
      height={profile.photo.height}
      alt={t('member.photoAlt', { name: profile.name })}
      decoding={isLcp ? 'sync' : 'async'}
      loading={isLcp ? 'eager' : 'lazy'}
      fetchPriority={isLcp ? 'high' : undefined}
    />
  );
}

/** The site's fictional label: its icon (named by the site's word) and that word written out for everyone to read. */
export function FictionalBadge({ className }: { className: string }) {
  const settings = useLanderSettings();
  return (
    <span className={className} data-testid="member-landing-fictional">
      <LanderFictionalIcon size={18} />
      <span aria-hidden="true">{settings.fictional_singular}</span>
    </span>
  );
}

/** Facts whose value reads only with its attribute's name. */
const NAMED_FACTS: ReadonlySet<string> = new Set(['hair_colour', 'eye_colour']);

/** The facts the site shows on profiles (gender, body type, …), each in the page's language. */
export function MemberFacts({ profile, className }: { profile: MemberLandingProfile; className: string }) {
  const { t } = useTranslation(['landers', 'common']);
  const facts = Object.entries(profile.facts);
  if (facts.length === 0) return null;
  return (
    <ul className={className} aria-label={t('member.factsLabel', { name: profile.name })}>
      {facts.map(([key, value]) => (
        <li key={key}>
          {/* A colour alone says nothing ("Brown"): it comes with its attribute ("Hair colour: Brown"). */}
          {NAMED_FACTS.has(key)
            ? t('member.fact', {
                label: t(`common:profile.attributes.${key}.label`),
                value: t(`common:profile.attributes.${key}.${value}`),
              })
            : t(`common:profile.attributes.${key}.${value}`)}
        </li>
      ))}
    </ul>
  );
}

/** The small print under a call to action: free to join with the welcome credits, adults only. */
export function MemberNote({ className }: { className: string }) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  return (
    <p className={className}>
      {t('common:home.points.free', { count: settings.signup_credits })} · {t('common:home.adultsOnly', { minAge: MIN_AGE })}
    </p>
  );
}

export function PinIcon() {
  return (
    <svg viewBox="0 0 24 24" width={16} height={16} aria-hidden="true" focusable="false">
      <path
        d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z"
        fill="currentColor"
      />
    </svg>
  );
}
