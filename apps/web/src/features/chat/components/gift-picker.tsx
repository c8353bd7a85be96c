import { GIFTS, type GiftId, type Message, type SendMessageResponse } from '@amora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Sheet } from '@/components/ui/sheet';
import { ApiRequestError } from '@/lib/api-client';
import { useSettings } from '@/shared/site/api/get-settings';
import { postMessage } from '../api/chats';
import type { ChatTarget } from '../api/use-conversation';
import { GiftArt } from './gift-art';
import './chat-media.css';

/**
 * The gift picker (spec §1: gifts in the chat): the twelve gifts of the catalogue with their names, a Sheet on
 * phones. Choosing one and pressing Send sends a message of kind gift, costing the site's gift_credits; a retry
 * after a failure goes with the same client id, so it is never charged twice.
 */
export function GiftPicker({
  isOpen,
  onClose,
  target,
  partnerName,
  onSent,
  onFailed,
}: {
  isOpen: boolean;
  onClose: () => void;
  target: ChatTarget;
  partnerName: string;
  onSent: (answer: SendMessageResponse) => void;
  /** A refusal the chat shows itself (not enough credits opens its dialog). */
  onFailed: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const settings = useSettings();
  const [gift, setGift] = useState<GiftId | null>(null);
  const [clientId, setClientId] = useState(() => crypto.randomUUID());
  const [isSending, setIsSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const choose = (next: GiftId) => {
    if (next !== gift) setClientId(crypto.randomUUID());
    setGift(next);
    setError(null);
  };
  const close = () => {
    setGift(null);
    setError(null);
    onClose();
  };
  const send = async () => {
    if (!gift) return;
    setIsSending(true);
    setError(null);
    try {
      const answer = await postMessage({ ...target, gift, client_id: clientId });
      onSent(answer);
      setClientId(crypto.randomUUID());
      close();
    } catch (failure) {
      if (failure instanceof ApiRequestError && failure.code === 'not_enough_credits') {
        close();
        onFailed(failure);
      } else if (failure instanceof ApiRequestError) {
        const key = failure.body.message_key as string | undefined;
        setError(key ? t(key, { ...failure.body, name: partnerName }) : t('errors.generic'));
      } else {
        setError(t('chat.offline'));
      }
    } finally {
      setIsSending(false);
    }
  };

  return (
    <Sheet
      isOpen={isOpen}
      onClose={close}
      title={t('chat.giftTitle', { name: partnerName })}
      testId="gift-picker"
      footer={
        <>
          <span className="small text-body-secondary me-auto" data-testid="gift-price">
            {t('chat.giftPrice', { count: settings.gift_credits })}
          </span>
          <Button variant="light" onClick={close}>
            {t('chat.cancel')}
          </Button>
          <Button onClick={() => void send()} disabled={!gift || isSending} data-testid="gift-send">
            {t('chat.giftSend')}
          </Button>
        </>
      }
    >
      <p className="visually-hidden">{t('chat.giftPick')}</p>
      <ul className="gift-grid list-unstyled m-0">
        {GIFTS.map((id) => (
          <li key={id}>
            <button
              type="button"
              className={`gift-tile${gift === id ? ' is-selected' : ''}`}
              aria-pressed={gift === id}
              onClick={() => choose(id)}
              data-testid={`gift-${id}`}
            >
              <GiftArt gift={id} size={48} />
              <span>{t(`chat.gifts.${id}`)}</span>
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p className="text-danger small mt-2 mb-0" role="alert">
          {error}
        </p>
      )}
    </Sheet>
  );
}

/** A gift message in the chat: its picture and its name. */
export function GiftBubble({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (!message.gift) return <div className="chat-bubble">{t('chat.gift')}</div>;
  const name = t(`chat.gifts.${message.gift}`);
  return (
    <figure className="chat-bubble chat-gift m-0" data-testid="chat-gift">
      <GiftArt gift={message.gift} size={72} />
      <figcaption>
        <span className="visually-hidden">{t('chat.gift')}: </span>
        {name}
      </figcaption>
    </figure>
  );
}
