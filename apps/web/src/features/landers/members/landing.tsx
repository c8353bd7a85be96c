import { useTranslation } from 'react-i18next';
import type { MemberLandingProps } from './member-landing-types';
import { FictionalBadge, MemberCta, MemberFacts, MemberNote, MemberPhoto, PinIcon, SignupsClosedNote } from './member-parts';
import './landing.css';

/**
 * /members/{id}/landing: the profile teaser. One card: the main photo with the name, age and city over it, the
 * fictional label where it applies, the facts the site shows, and one way on: write to this profile (the signup
 * with a first message). Nothing the profile did is claimed: no messages, no "online", no counts.
 */
export function MemberLanding({ profile, canSignUp, query }: MemberLandingProps) {
  const { t } = useTranslation('landers');
  return (
    <main id="main" className="l-member" data-testid="member-landing">
      <article className="l-member-card" data-profile-id={profile.id}>
        <div className="l-member-media">
          <MemberPhoto profile={profile} className="l-member-photo" sizes="(min-width: 768px) 400px, 100vw" />
          <div className="l-member-who">
            <h1 className="l-member-name">
              {profile.name}, {profile.age}
            </h1>
            {profile.city && (
              <p className="l-member-city">
                <PinIcon />
                {profile.city}
              </p>
            )}
          </div>
          {profile.is_fictional && <FictionalBadge className="l-member-fictional" />}
        </div>
        <div className="l-member-body">
          <MemberFacts profile={profile} className="l-member-facts" />
          <h2 className="l-member-title">{t('member.teaser.title', { name: profile.name })}</h2>
          <p className="l-member-text">{t('member.teaser.text', { name: profile.name })}</p>
          {!canSignUp && <SignupsClosedNote className="l-member-closed" />}
          <MemberCta profile={profile} canSignUp={canSignUp} query={query} className="l-member-cta" />
          <MemberNote className="l-member-note" />
        </div>
      </article>
    </main>
  );
}
