import type { Message } from '@amora/contracts';
import { useTranslation } from 'react-i18next';
import { chatDayKey, formatChatDay, formatClockTime } from '@/lib/format-time';
import { useLocale } from '@/shared/site/use-locale';
import type { PendingMessage } from '../api/use-conversation';
import { MediaBubble } from './chat-tools';
import { MessageExtras } from './message-extras';

/** The partner as the chat's header shows them (from the messages call, or the profile for a new chat). */
export interface ChatPartner {
  id: number;
  name: string;
  thumb_url: string | null;
  is_fictional: boolean;
}

/** Messages from the same side within this many minutes form a run: only its last one shows the time. */
const RUN_MINUTES = 5;

export function closesRun(message: Message, next: Message | undefined): boolean {
  if (!next || next.from_me !== message.from_me) return true;
  if (chatDayKey(next.created_at) !== chatDayKey(message.created_at)) return true;
  return Date.parse(next.created_at) - Date.parse(message.created_at) > RUN_MINUTES * 60_000;
}

export const isToday = (iso: string | undefined) => iso !== undefined && chatDayKey(iso) === chatDayKey(new Date().toISOString());

/** Above the first message of each day: "Today", "Yesterday", the weekday, or the date, in the member's language. */
export function DaySeparator({ iso }: { iso: string }) {
  const locale = useLocale();
  return (
    <li className="chat-day" data-testid="chat-day">
      <time dateTime={chatDayKey(iso)}>{formatChatDay(iso, locale)}</time>
    </li>
  );
}

export function Bubble({ message, partner, isLastOfRun }: { message: Message; partner: ChatPartner; isLastOfRun: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const text = message.status === 'rejected' ? t('chat.removed') : message.kind === 'text' ? message.body : t(`chat.${message.kind}`);
  return (
    <li
      className={`chat-message ${message.from_me ? 'chat-message-mine' : 'chat-message-theirs'}${isLastOfRun ? ' chat-message-last' : ''}`}
      data-testid="chat-message"
      // The partner's messages are the partner's words: each names its profile, and a fictional one's carries the label.
      data-profile-id={message.from_me ? undefined : partner.id}
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

export function PendingBubble({
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
