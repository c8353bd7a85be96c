import { useTranslation } from 'react-i18next';
import type { MemberLandingProps } from './member-landing-types';
import { FictionalBadge, MemberCta, MemberFacts, MemberNote, MemberPhoto, PinIcon, SignupsClosedNote } from './member-parts';
import './landing2.css';

/**
 * /members/{id}/landing2/{slug?}: a split page. The portrait takes half the screen (the top on a phone) with the
 * name over it; beside it the niche's pitch and the three real steps to reach this profile: sign up, write the
 * first message, confirm the address (the message goes out then).
 */
export function MemberLanding2({ profile, niche, canSignUp, query }: MemberLandingProps) {
  const { t } = useTranslation('landers');
  const steps = [
    t('member.split.stepSignup'),
    t('member.split.stepWrite', { name: profile.name }),
    t('member.split.stepConfirm', { name: profile.name }),
  ];
  return (
    <main id="main" className="l-member2" data-testid="member-landing2" data-profile-id={profile.id}>
      <div className="l-member2-media">
        <MemberPhoto profile={profile} className="l-member2-photo" sizes="(min-width: 992px) 50vw, 100vw" />
        <div className="l-member2-who">
          <p className="l-member2-name">
            {profile.name}, {profile.age}
          </p>
          {profile.city && (
            <p className="l-member2-city">
              <PinIcon />
              {profile.city}
            </p>
          )}
        </div>
        {profile.is_fictional && <FictionalBadge className="l-member2-fictional" />}
      </div>
      <section className="l-member2-panel" aria-labelledby="l-member2-title">
        <p className="l-member2-kicker">{t(`niche.${niche}.label`)}</p>
        <h1 id="l-member2-title" className="l-member2-title">
          {t('member.split.title', { name: profile.name })}
        </h1>
        <p className="l-member2-lead">{t(`niche.${niche}.pitch`)}</p>
        <MemberFacts profile={profile} className="l-member2-facts" />
        <h2 id="l-member2-steps-title" className="l-member2-steps-title">
          {t('member.split.stepsTitle', { name: profile.name })}
        </h2>
        <ol className="l-member2-steps" aria-labelledby="l-member2-steps-title">
          {steps.map((step, index) => (
            <li key={step}>
              <span className="l-member2-step-number" aria-hidden="true">
                {index + 1}
              </span>
              <span>{step}</span>
            </li>
          ))}
        </ol>
        {!canSignUp && <SignupsClosedNote className="l-member2-closed" />}
        <MemberCta profile={profile} canSignUp={canSignUp} query={query} className="l-member2-cta" />
        <MemberNote className="l-member2-note" />
      </section>
    </main>
  );
}
