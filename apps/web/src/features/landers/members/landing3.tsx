import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepLandingMessage } from '@/shared/profiles/landing-message';
import type { MemberLandingProps } from './member-landing-types';
import { FictionalBadge, MemberCta, MemberFacts, MemberNote, MemberPhoto, SignupsClosedNote } from './member-parts';
import './landing3.css';

/** As long as the signup's first message may be (contracts' signupSchema). */
const MESSAGE_MAX = 1000;

/**
 * /members/{id}/landing3/{slug?}: the conversation that has not started yet. A chat window with the profile in
 * its head, an empty history that says so, a few openers the visitor may take, and the composer: what is written
 * there goes with the visitor to the signup about this profile (sessionStorage) and is sent once the address is
 * confirmed. The profile says nothing here: no message is put in its mouth.
 */
export function MemberLanding3({ profile, niche, canSignUp, query }: MemberLandingProps) {
  const { t } = useTranslation('landers');
  const [message, setMessage] = useState('');
  const fieldId = useId();
  const ideas = [
    t('member.chat.ideaHello', { name: profile.name }),
    profile.city ? t('member.chat.ideaCity', { name: profile.name, city: profile.city }) : null,
    t('member.chat.ideaProfile', { name: profile.name }),
  ].filter((idea): idea is string => idea !== null);
  return (
    <main id="main" className="l-member3" data-testid="member-landing3">
      <div className="l-member3-layout">
        <section className="l-member3-intro" aria-labelledby="l-member3-title">
          <p className="l-member3-kicker">{t(`niche.${niche}.audience`)}</p>
          <h1 id="l-member3-title" className="l-member3-title">
            {t('member.chat.title', { name: profile.name })}
          </h1>
          <p className="l-member3-lead">{t('member.chat.delivery', { name: profile.name })}</p>
        </section>
        <section
          className="l-member3-window"
          aria-label={t('member.chat.windowLabel', { name: profile.name })}
          data-profile-id={profile.id}
        >
          <header className="l-member3-head">
            <span className="l-member3-avatar">
              <MemberPhoto profile={profile} className="l-member3-avatar-photo" sizes="44px" isLcp={false} />
            </span>
            <span className="l-member3-head-text">
              <strong>
                {profile.name}, {profile.age}
              </strong>
              {profile.city && <span>{profile.city}</span>}
            </span>
            {profile.is_fictional && <FictionalBadge className="l-member3-fictional" />}
          </header>
          <div className="l-member3-history">
            <div className="l-member3-profile">
              <MemberPhoto profile={profile} className="l-member3-profile-photo" sizes="(min-width: 992px) 180px, 40vw" />
              <MemberFacts profile={profile} className="l-member3-facts" />
            </div>
            <p className="l-member3-empty">{t('member.chat.empty')}</p>
            {canSignUp && (
              <div className="l-member3-ideas">
                <p className="l-member3-ideas-title">{t('member.chat.ideasTitle')}</p>
                <ul>
                  {ideas.map((idea) => (
                    <li key={idea}>
                      <button type="button" className="l-member3-idea" aria-pressed={message === idea} onClick={() => setMessage(idea)}>
                        {idea}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
          {canSignUp ? (
            <div className="l-member3-composer">
              <label htmlFor={fieldId} className="l-member3-label">
                {t('member.chat.label', { name: profile.name })}
              </label>
              <div className="l-member3-compose-row">
                <textarea
                  id={fieldId}
                  className="l-member3-input"
                  rows={2}
                  maxLength={MESSAGE_MAX}
                  placeholder={t('member.chat.placeholder')}
                  value={message}
                  onChange={(event) => setMessage(event.target.value)}
                />
                <MemberCta
                  profile={profile}
                  canSignUp
                  query={query}
                  className="l-member3-send"
                  onClick={() => keepLandingMessage(profile.id, message)}
                >
                  {t('member.chat.send')}
                </MemberCta>
              </div>
            </div>
          ) : (
            <div className="l-member3-composer">
              <SignupsClosedNote className="l-member3-closed" />
              <MemberCta profile={profile} canSignUp={false} query={query} className="l-member3-send" />
            </div>
          )}
        </section>
      </div>
      <MemberNote className="l-member3-note" />
    </main>
  );
}
