import type { ChatBlock, Message, SendMessageResponse } from '@amora/contracts';
import { type FormEvent, Fragment, type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '@/components/ui/avatar';
import { Button, buttonClass } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { ApiRequestError } from '@/lib/api-client';
import { chatDayKey, formatChatDay, formatClockTime } from '@/lib/format-time';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { type ChatTarget, type PendingMessage, useConversation } from '../api/use-conversation';
import { ChatSafety, useChatSafety } from './chat-safety-context';
import { ChatTools, MediaBubble } from './chat-tools';
import { Icebreakers } from './icebreakers';
import { MessageExtras, ReportMemberButton } from './message-extras';
import { useMinimumMessagePrice } from './message-price';
import { TypingIndicator } from './typing-indicator';

/** The partner as the chat's header shows them (from the messages call, or the profile for a new chat). */
export interface ChatPartner {
  id: number;
  name: string;
  thumb_url: string | null;
  is_fictional: boolean;
}

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

/** Messages from the same side within this many minutes form a run: only its last one shows the time. */
const RUN_MINUTES = 5;

function closesRun(message: Message, next: Message | undefined): boolean {
  if (!next || next.from_me !== message.from_me) return true;
  if (chatDayKey(next.created_at) !== chatDayKey(message.created_at)) return true;
  return Date.parse(next.created_at) - Date.parse(message.created_at) > RUN_MINUTES * 60_000;
}

const isToday = (iso: string | undefined) => iso !== undefined && chatDayKey(iso) === chatDayKey(new Date().toISOString());

/** Above the first message of each day: "Today", "Yesterday", the weekday, or the date, in the member's language. */
function DaySeparator({ iso }: { iso: string }) {
  const locale = useLocale();
  return (
    <li className="chat-day" data-testid="chat-day">
      <time dateTime={chatDayKey(iso)}>{formatChatDay(iso, locale)}</time>
    </li>
  );
}

function Bubble({ message, partner, isLastOfRun }: { message: Message; partner: ChatPartner; isLastOfRun: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const text = message.status === 'rejected' ? t('chat.removed') : message.kind === 'text' ? message.body : t(`chat.${message.kind}`);
  return (
    <li
      className={`chat-message ${message.from_me ? 'chat-message-mine' : 'chat-message-theirs'}${isLastOfRun ? ' chat-message-last' : ''}`}
      data-testid="chat-message"
    >
      {message.status !== 'rejected' && message.kind !== 'text' ? (
        <MediaBubble message={message} partnerName={partner.name} />
      ) : (
        <div className="chat-bubble">{text}</div>
      )}
      <div className={isLastOfRun ? 'chat-meta' : 'visually-hidden'}>
        <time dateTime={message.created_at}>{formatClockTime(message.created_at, locale)}</time>
        {message.from_me && <span data-testid="chat-message-sent">{t('chat.sent')}</span>}
      </div>
      {message.from_me && message.photo?.opened && (
        <div className="chat-seen" data-testid="chat-photo-opened">
          {t('chat.photoOpened')}
        </div>
      )}
      <MessageExtras message={message} isFictional={partner.is_fictional} />
    </li>
  );
}

function PendingBubble({
  message,
  errorText,
  onRetry,
  onDiscard,
}: {
  message: PendingMessage;
  errorText: string | null;
  onRetry: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation();
  return (
    <li
      className={`chat-message chat-message-mine chat-message-${message.status}`}
      data-testid="chat-pending"
      data-client-id={message.clientId}
    >
      <div className="chat-bubble">{message.body}</div>
      <div className="chat-meta">
        {message.status === 'pending' ? (
          <span role="status">{t('chat.pending')}</span>
        ) : (
          <>
            {message.status === 'waiting' ? (
              <span role="status" data-testid="chat-waiting">
                {t('chat.offline')}
              </span>
            ) : (
              <span className="text-danger">{errorText ?? t('chat.failed')}</span>
            )}
            <button type="button" className="btn btn-link btn-sm p-0" onClick={onRetry} data-testid="chat-retry">
              {t('chat.retry')}
            </button>
            <button type="button" className="btn btn-link btn-sm p-0 text-body-secondary" onClick={onDiscard}>
              {t('chat.discard')}
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/**
 * The message footer: one row of the gift and photo buttons, the text (up to the site's message_length) and Send;
 * below it what a message costs and the counter. The buttons sit outside the form, whose dialogs have forms of
 * their own.
 */
function Composer({
  isDisabled,
  onSend,
  draft,
  tools,
}: {
  isDisabled: boolean;
  onSend: (body: string) => void;
  /** An icebreaker tapped: its text fills the composer. */
  draft?: { text: string } | null;
  /** The gift and photo buttons, at the start of the row. */
  tools?: ReactNode;
}) {
  const { t } = useTranslation();
  const settings = useSettings();
  const [body, setBody] = useState('');
  const minPrice = useMinimumMessagePrice();
  useEffect(() => {
    if (draft) setBody(draft.text);
  }, [draft]);
  const { notifyTyping } = useChatSafety();
  const id = useId();
  const max = settings.message_length;
  const length = Array.from(body).length;
  const isTooLong = length > max;
  const canSend = !isDisabled && body.trim() !== '' && !isTooLong;
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    onSend(body.trim());
    setBody('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  return (
    <div className="chat-composer">
      <div className="chat-composer-input">
        {tools}
        <form className="chat-composer-form" onSubmit={submit} data-testid="chat-composer">
          <label htmlFor={id} className="visually-hidden">
            {t('chat.placeholder')}
          </label>
          <textarea
            id={id}
            className={`form-control${isTooLong ? ' is-invalid' : ''}`}
            rows={1}
            value={body}
            placeholder={t('chat.placeholder')}
            disabled={isDisabled}
            onChange={(event) => {
              setBody(event.target.value);
              notifyTyping();
            }}
            onKeyDown={onKeyDown}
            aria-describedby={`${id}-counter ${id}-price`}
            aria-invalid={isTooLong || undefined}
          />
          <Button type="submit" disabled={!canSend} data-testid="chat-send" className="chat-send">
            <svg className="chat-send-icon" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M3.4 20.4 21 12 3.4 3.6 3.4 10.2 15 12 3.4 13.8z" fill="currentColor" />
            </svg>
            <span className="chat-send-label">{t('chat.send')}</span>
          </Button>
        </form>
      </div>
      <div className="chat-composer-row">
        <span id={`${id}-price`} data-testid="chat-price">
          {t('chat.price', { count: settings.message_credits })}
          {minPrice && ` · ${t('chat.priceMoney', { amount: minPrice })}`}
        </span>
        <span id={`${id}-counter`} className={`ms-auto${isTooLong ? ' text-danger' : ''}`} data-testid="chat-counter">
          <span aria-hidden="true">
            {length}/{max}
          </span>
          <span className="visually-hidden">
            {isTooLong ? t('chat.tooLongBy', { count: length - max }) : t('chat.charsLeft', { count: max - length })}
          </span>
        </span>
      </div>
    </div>
  );
}

/**
 * Said before a send fails, not after: when the balance no longer pays for a message, a line above the composer
 * tells how many credits are left and what a message costs, with the way to buy more.
 */
function LowCredits() {
  const { t } = useTranslation();
  const user = useUser();
  const settings = useSettings();
  if (!user || user.credits >= settings.message_credits) return null;
  return (
    <p className="alert alert-light border py-2 mb-2 small" role="status" data-testid="chat-low-credits">
      {t('chat.creditsLeft', { count: user.credits, price: t('chat.costCredits', { count: settings.message_credits }) })}{' '}
      <LocalLink to="/credits" className="alert-link" data-testid="low-credits-buy">
        {t('chat.buyCredits')}
      </LocalLink>
    </p>
  );
}

/** What was refused for want of credits: a message, a gift or a photo, each with its own price. */
export type SendKind = 'message' | 'gift' | 'photo';
export interface CreditsRefusal {
  credits: number;
  price: number;
  kind: SendKind;
}
const CREDITS_LEFT_KEYS = {
  message: 'chat.creditsLeft',
  gift: 'chat.creditsLeftGift',
  photo: 'chat.creditsLeftPhoto',
} as const;

/**
 * A send refused for want of credits: says so in the spec's words, how many credits are left and what a message
 * costs, and offers to buy credits (spec §8).
 */
export function NotEnoughCredits({ refusal, onClose }: { refusal: CreditsRefusal | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const minPrice = useMinimumMessagePrice();
  return (
    <Dialog isOpen={refusal !== null} onClose={onClose} labelledBy={titleId} size="sm" testId="not-enough-credits">
      <div className="modal-header border-0 pb-0">
        <h2 className="modal-title h5" id={titleId}>
          {t('chat.errors.notEnoughCredits')}
        </h2>
      </div>
      <div className="modal-body" data-testid="not-enough-credits-text">
        {refusal &&
          t(CREDITS_LEFT_KEYS[refusal.kind], {
            count: refusal.credits,
            // "10 credits", not a bare 10 that reads like money beside the price per message in brackets.
            price: t('chat.costCredits', { count: refusal.price }),
          })}
        {refusal && minPrice && ` (${t('chat.priceMoney', { amount: minPrice })})`}
      </div>
      <div className="modal-footer border-0 pt-0">
        <Button variant="light" onClick={onClose}>
          {t('chat.close')}
        </Button>
        <LocalLink to="/credits" className={buttonClass()} data-testid="buy-credits">
          {t('chat.buyCredits')}
        </LocalLink>
      </div>
    </Dialog>
  );
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
        <LocalLink to={`/members/${partner.id}`} className="chat-header-link">
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
