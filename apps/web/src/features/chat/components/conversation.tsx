import type { ChatBlock, SendMessageResponse } from '@amora/contracts';
import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { ApiRequestError } from '@/lib/api-client';
import { chatDayKey } from '@/lib/format-time';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { type ChatTarget, useConversation } from '../api/use-conversation';
import { ChatSafety } from './chat-safety-context';
import { ChatTools } from './chat-tools';
import { Composer, LowCredits } from './composer';
import { Icebreakers } from './icebreakers';
import { Bubble, type ChatPartner, closesRun, DaySeparator, isToday, PendingBubble } from './message-bubbles';
import { ReportMemberButton } from './message-extras';
import { type CreditsRefusal, NotEnoughCredits, type SendKind } from './not-enough-credits';
import { TypingIndicator } from './typing-indicator';

const BLOCK_KEYS: Record<ChatBlock, string> = {
  partner_unconfirmed: 'chat.errors.partnerUnconfirmed',
  own_unconfirmed: 'chat.errors.ownUnconfirmed',
  blocked_by_partner: 'chat.errors.blockedByPartner',
  blocked_partner: 'chat.errors.blockedPartner',
  partner_gone: 'chat.errors.partnerGone',
};

/** The words of a refused send: the catalogue key the server named, with its values ({name}, {count}). */
function useSendErrorText() {
  const { t } = useTranslation();
  return (error: unknown, name: string): string => {
    if (error instanceof ApiRequestError) {
      const key = error.body.message_key as string | undefined;
      if (error.status === 404) return t('chat.errors.partnerGone');
      if (key) return t(key, { ...error.body, name: (error.body.name as string | undefined) ?? name });
      return t('errors.generic');
    }
    return t('chat.offline');
  };
}

/**
 * One chat (spec §2 chats-id, members-id-chat): the partner in the header (with the fictional icon and warning), the
 * messages up to 800 px wide, mine and theirs, pending sends, the line where history is hidden, why I cannot
 * write if so, and the composer.
 */
export function Conversation({
  target,
  partner: knownPartner,
  onBack,
  onSent,
}: {
  target: ChatTarget;
  /** The partner before the messages answer (a new chat has no messages call). */
  partner?: ChatPartner;
  onBack?: () => void;
  onSent?: (answer: SendMessageResponse) => void;
}) {
  const { t } = useTranslation();
  const settings = useSettings();
  const [creditsRefusal, setCreditsRefusal] = useState<CreditsRefusal | null>(null);
  const onFailed = useCallback(
    (error: unknown, kind: SendKind = 'message') => {
      if (!(error instanceof ApiRequestError) || error.code !== 'not_enough_credits') return;
      const { credits, price } = error.body as { credits?: number; price?: number };
      const listed = { message: settings.message_credits, gift: settings.gift_credits, photo: settings.photo_credits }[kind];
      setCreditsRefusal({ credits: credits ?? 0, price: price ?? listed, kind });
    },
    [settings.message_credits, settings.gift_credits, settings.photo_credits],
  );
  const chat = useConversation(target, { onSent, onFailed });
  const me = useUser();
  const [draft, setDraft] = useState<{ text: string } | null>(null);
  const errorText = useSendErrorText();
  const partner = chat.head?.profile ?? knownPartner;
  const listEnd = useRef<HTMLDivElement>(null);
  const lastFailure = chat.pending.findLast((p) => p.status === 'failed');
  const failureCode = lastFailure?.error instanceof ApiRequestError ? lastFailure.error.code : null;
  // Refusals explained beside the composer or in a dialog say only "Not sent" under the message itself.
  const failedText = (error: unknown, name: string) =>
    error instanceof ApiRequestError && (error.code === 'conversation_limit' || error.code === 'not_enough_credits')
      ? t('chat.failed')
      : errorText(error, name);

  const count = chat.messages.length + chat.pending.length;
  useEffect(() => {
    if (count > 0) listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  if (chat.loadError) {
    return (
      <div className="chat-window p-4 text-center" role="alert">
        <p>{errorText(chat.loadError, '')}</p>
        <Button variant="outline-primary" onClick={() => void chat.load()}>
          {t('chat.retry')}
        </Button>
      </div>
    );
  }
  if (!partner || ('conversation' in target && !chat.head)) {
    return (
      <SkeletonRegion label={t('chat.loading')} className="chat-window p-3">
        <SkeletonText lines={4} />
      </SkeletonRegion>
    );
  }
  // A new chat has no messages answer yet: an unconfirmed member is told before the first send, not after it.
  const blocked = chat.head ? chat.head.blocked : me?.status === 'not_confirmed' ? 'own_unconfirmed' : null;
  return (
    <section className="chat-window" aria-label={t('chat.with', { name: partner.name })} data-testid="conversation">
      <header className="chat-header">
        {onBack && (
          <button type="button" className="btn btn-link chat-back" onClick={onBack} aria-label={t('chat.back')}>
            <span aria-hidden="true">‹</span>
          </button>
        )}
        <LocalLink to={`/members/${partner.id}`} className="chat-header-link" data-profile-id={partner.id}>
          <Avatar name={partner.name} src={partner.thumb_url} />
          <h1 className="h6 m-0">{partner.name}</h1>
          {partner.is_fictional && <FictionalIcon size={18} testId="chat-header-fictional" />}
        </LocalLink>
        <ReportMemberButton />
      </header>
      {partner.is_fictional && (
        <p className="chat-fictional-warning" data-testid="chat-fictional-warning">
          {settings.fictional_warning}
        </p>
      )}
      <div className="chat-scroll">
        <div className="chat-content">
          {chat.head?.history_hidden && !chat.head.has_more_before && (
            <p className="chat-history-hidden" data-testid="chat-history-hidden">
              {t('chat.historyHidden')}
            </p>
          )}
          {chat.head?.has_more_before && (
            <div className="text-center my-2">
              <Button variant="light" size="sm" onClick={() => void chat.loadOlder()}>
                {t('chat.older')}
              </Button>
            </div>
          )}
          {count === 0 && (
            <div className="chat-hello">
              <Avatar name={partner.name} src={partner.thumb_url} size="xl" />
              <p className="h6 mt-3 mb-0">{t('chat.sayHello', { name: partner.name })}</p>
            </div>
          )}
          {count === 0 && !chat.head?.blocked && <Icebreakers onPick={(text) => setDraft({ text })} />}
          <ol className="chat-messages list-unstyled" aria-live="polite">
            {chat.messages.map((message, i) => (
              <Fragment key={message.seq}>
                {(i === 0 || chatDayKey(chat.messages[i - 1].created_at) !== chatDayKey(message.created_at)) && (
                  <DaySeparator iso={message.created_at} />
                )}
                <Bubble message={message} partner={partner} isLastOfRun={closesRun(message, chat.messages[i + 1])} />
              </Fragment>
            ))}
            {chat.pending.length > 0 && !isToday(chat.messages.at(-1)?.created_at) && <DaySeparator iso={new Date().toISOString()} />}
            {chat.pending.map((message) => (
              <PendingBubble
                key={message.clientId}
                message={message}
                errorText={message.status === 'failed' ? failedText(message.error, partner.name) : null}
                onRetry={() => chat.retry(message.clientId)}
                onDiscard={() => chat.discard(message.clientId)}
              />
            ))}
          </ol>
          <TypingIndicator />
          <div ref={listEnd} />
        </div>
      </div>
      <div className="chat-footer">
        <div className="chat-content">
          {blocked && (
            <p className="alert alert-warning py-2 mb-2" role="status" data-testid="chat-blocked">
              {t(BLOCK_KEYS[blocked], { name: partner.name })}
            </p>
          )}
          {failureCode === 'conversation_limit' && (
            <p className="alert alert-info py-2 mb-2" role="alert" data-testid="chat-limit">
              {t('chat.errors.conversationLimit')}{' '}
              <LocalLink to="/credits" className="alert-link" data-testid="limit-buy-credits">
                {t('chat.buyCredits')}
              </LocalLink>
            </p>
          )}
          {blocked === null && <LowCredits />}
          <Composer
            isDisabled={blocked !== null && blocked !== 'own_unconfirmed'}
            onSend={chat.send}
            draft={draft}
            tools={
              <ChatTools
                target={target}
                partnerName={partner.name}
                isDisabled={blocked !== null && blocked !== 'own_unconfirmed'}
                onSent={chat.receive}
                onFailed={onFailed}
              />
            }
          />
        </div>
      </div>
      <ChatSafety
        conversationId={chat.head?.conversation.id ?? null}
        partner={partner}
        messages={chat.messages}
        partnerReadSeq={chat.head?.partner_read_seq}
      />
      <NotEnoughCredits refusal={creditsRefusal} onClose={() => setCreditsRefusal(null)} />
    </section>
  );
}
