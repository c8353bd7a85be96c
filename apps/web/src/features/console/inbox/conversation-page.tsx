import type { InboxConversation, InboxProfile } from '@amora/contracts';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { ApiRequestError } from '@/lib/api-client';
import { countryName } from '@/shared/site/country-name';
import { consoleErrorText } from '../console-error';
import { FictionalBadge } from '../shell/fictional-badge';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';
import { fetchOlder, useInboxActions, useInboxConversation } from './inbox-api';

/** The time now, every second (the claim's time left counts down). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** What an operator needs to answer well: who the profile is, where, about them and their interests. */
function ProfilePanel({ profile, testId }: { profile: InboxProfile; testId: string }) {
  const { t, i18n } = useTranslation(['console', 'common']);
  const place = [profile.city, profile.region, countryName(profile.country, i18n.language)].filter(Boolean).join(', ');
  return (
    <section className="card card-body mb-3" data-testid={testId} aria-label={profile.name} data-profile-id={profile.id}>
      <div className="d-flex gap-3 align-items-start">
        {profile.photo_url ? <img src={profile.photo_url} alt="" width={72} height={72} className="rounded object-fit-cover" /> : null}
        <div>
          <h2 className="h5 mb-1">
            {profile.name}, {profile.age} {profile.is_fictional && <FictionalBadge />}
          </h2>
          <div className="small text-body-secondary">{place}</div>
          <div className="small">
            {[
              profile.gender && t(`common:profile.attributes.gender.${profile.gender}`, { defaultValue: profile.gender }),
              profile.sexuality && t(`common:profile.attributes.sexuality.${profile.sexuality}`, { defaultValue: profile.sexuality }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </div>
        </div>
      </div>
      <h3 className="h6 mt-3 mb-1">{t('console:inbox.about')}</h3>
      <p className="small mb-2" style={{ whiteSpace: 'pre-wrap' }}>
        {profile.about || '–'}
      </p>
      <h3 className="h6 mb-1">{t('console:inbox.interests')}</h3>
      <p className="small mb-0">
        {profile.interests.length ? profile.interests.map((i) => t(`common:interests.${i}`, { defaultValue: i })).join(', ') : '–'}
      </p>
    </section>
  );
}

function claimErrorText(t: ReturnType<typeof useTranslation<'console'>>['t'], error: unknown): string {
  if (error instanceof ApiRequestError && error.status === 409 && typeof error.body.name === 'string' && error.body.name) {
    return t('inbox.claimedBy', { name: error.body.name });
  }
  return consoleErrorText(t, error);
}

/** One conversation: the messages, the member's profile beside them, the claim and the answer. */
export function ConversationPage() {
  const { t, i18n } = useTranslation('console');
  const conversationId = Number(useParams().conversationId);
  const conversation = useInboxConversation(conversationId);
  const actions = useInboxActions(conversationId);
  const navigate = useNavigate();
  const now = useNow();
  const ids = useId();
  const [text, setText] = useState('');
  const [older, setOlder] = useState<InboxConversation['messages']>([]);
  const [moreOlder, setMoreOlder] = useState<boolean | null>(null);
  useConsoleTitle(conversation.data ? t('inbox.conversationTitle', { name: conversation.data.member.name }) : t('inbox.title'));

  if (conversation.isPending) return <div className="spinner-border" role="status" aria-label={t('loading')} />;
  if (conversation.isError) {
    return (
      <div className="alert alert-danger" role="alert">
        {consoleErrorText(t, conversation.error)}
      </div>
    );
  }
  const data = conversation.data;
  const claim = data.claim;
  const left = claim ? Math.max(0, Math.floor((Date.parse(claim.expires_at) - now) / 1000)) : 0;
  const mine = Boolean(claim?.mine && left > 0);
  const heldByOther = Boolean(claim && !claim.mine && left > 0);
  // A member who left, was suspended or blocked the profile: no claim, no answer.
  const unanswerable = data.unanswerable;
  const canAnswer = mine && !unanswerable;
  const messages = [...older, ...data.messages];
  const hasOlder = moreOlder ?? data.more;
  const error = actions.claim.error ?? actions.release.error ?? actions.answer.error;

  const loadOlder = async () => {
    const first = messages[0];
    if (!first) return;
    const page = await fetchOlder(conversationId, first.seq);
    setOlder((previous) => [...page.messages, ...previous]);
    setMoreOlder(page.more);
  };
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canAnswer || text.trim() === '' || actions.answer.isPending) return;
    actions.answer.mutate(text, {
      onSuccess: () => {
        setText('');
        navigate('..', { relative: 'path' });
      },
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <Link to=".." relative="path" className="btn btn-link px-0">
          {t('inbox.back')}
        </Link>
        <h1 className="h4 mb-0 me-auto">{t('inbox.conversationTitle', { name: data.member.name })}</h1>
        <span className="small text-body-secondary">{data.site.name}</span>
      </div>
      <div className="row g-3">
        <div className="col-lg-7">
          <section className="card card-body mb-3" aria-label={t('inbox.messages')} data-testid="inbox-messages">
            {hasOlder && (
              <Button variant="outline-secondary" size="sm" onClick={loadOlder} testId="inbox-older">
                {t('inbox.older')}
              </Button>
            )}
            <ol className="list-unstyled mb-0">
              {messages.map((message) => (
                <li
                  key={message.id}
                  className={`my-2 d-flex ${message.from === 'fictional' ? 'justify-content-end' : ''}`}
                  data-testid={`inbox-message-${message.id}`}
                >
                  <div className={`p-2 rounded ${message.from === 'fictional' ? 'bg-primary-subtle' : 'bg-body-tertiary'}`}>
                    <div className="small text-body-secondary">
                      {message.from === 'fictional' ? (
                        <span data-profile-id={data.fictional.id}>
                          {data.fictional.name} <FictionalBadge />
                        </span>
                      ) : (
                        data.member.name
                      )}{' '}
                      · {formatConsoleTime(message.created_at, i18n.language)}
                    </div>
                    <div style={{ whiteSpace: 'pre-wrap' }}>
                      {message.status === 'rejected'
                        ? t('inbox.removed')
                        : message.kind === 'text'
                          ? message.body
                          : message.kind === 'gift'
                            ? t('inbox.kinds.gift')
                            : t('inbox.kinds.photo')}
                    </div>
                  </div>
                </li>
              ))}
            </ol>
          </section>

          <section className="card card-body" aria-label={t('inbox.answerAs', { name: data.fictional.name })}>
            <div className="d-flex flex-wrap align-items-center gap-2 mb-2" data-testid="inbox-claim">
              {mine && (
                <span className="small" data-testid="inbox-claim-left">
                  {t('inbox.timeLeft', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` })}
                </span>
              )}
              {heldByOther && claim && (
                <span className="small text-warning-emphasis">{t('inbox.claimedBy', { name: claim.staff_name })}</span>
              )}
              {!heldByOther && !unanswerable && (
                <Button
                  variant={mine ? 'outline-secondary' : 'primary'}
                  size="sm"
                  onClick={() => actions.claim.mutate()}
                  isLoading={actions.claim.isPending}
                  testId="inbox-claim-button"
                >
                  {mine ? t('inbox.renew') : t('inbox.claimAction')}
                </Button>
              )}
              {mine && (
                <Button variant="outline-secondary" size="sm" onClick={() => actions.release.mutate()} testId="inbox-release">
                  {t('inbox.release')}
                </Button>
              )}
            </div>
            {unanswerable && (
              <div className="alert alert-warning py-2" role="status" data-testid="inbox-unanswerable">
                {unanswerable === 'blocked' ? t('inbox.errors.blocked') : t('inbox.errors.memberUnavailable')}
              </div>
            )}
            {!data.unanswered && <p className="small text-body-secondary">{t('inbox.alreadyAnswered')}</p>}
            {error && (
              <div className="alert alert-danger py-2" role="alert">
                {claimErrorText(t, error)}
              </div>
            )}
            <form onSubmit={send}>
              <label className="form-label" htmlFor={`${ids}-text`}>
                <span data-profile-id={data.fictional.id}>
                  {t('inbox.answerAs', { name: data.fictional.name })} <FictionalBadge />
                </span>
              </label>
              <textarea
                id={`${ids}-text`}
                className="form-control mb-2"
                rows={4}
                maxLength={data.max_length}
                value={text}
                onChange={(event) => setText(event.target.value)}
                onKeyDown={onKeyDown}
                disabled={!canAnswer}
                aria-describedby={`${ids}-hint`}
                data-testid="inbox-reply"
              />
              <div className="d-flex align-items-center gap-2">
                <span id={`${ids}-hint`} className="small text-body-secondary me-auto">
                  {unanswerable ? null : mine ? t('inbox.replyHint') : t('inbox.claimFirst')}
                </span>
                <Button type="submit" disabled={!canAnswer || text.trim() === ''} isLoading={actions.answer.isPending} testId="inbox-send">
                  {t('inbox.send')}
                </Button>
              </div>
            </form>
          </section>
        </div>
        <div className="col-lg-5">
          <ProfilePanel profile={data.member} testId="inbox-member" />
          <ProfilePanel profile={data.fictional} testId="inbox-fictional" />
        </div>
      </div>
    </>
  );
}
