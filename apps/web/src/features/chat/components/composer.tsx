import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useChatSafety } from './chat-safety-context';
import { useMinimumMessagePrice } from './message-price';

/**
 * The message footer: one row of the gift and photo buttons, the text (up to the site's message_length) and Send;
 * below it what a message costs and the counter. The buttons sit outside the form, whose dialogs have forms of
 * their own.
 */
export function Composer({
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
export function LowCredits() {
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
