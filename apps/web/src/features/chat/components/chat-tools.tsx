import type { Message, SendMessageResponse } from '@amora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatTarget } from '../api/use-conversation';
import { GiftArt } from './gift-art';
import { GiftBubble, GiftPicker } from './gift-picker';
import { PhotoBubble, PhotoSender } from './photo-message';

/** The buttons beside the composer: a gift (the picker) and a photo. */
export function ChatTools({
  target,
  partnerName,
  isDisabled,
  onSent,
  onFailed,
}: {
  target: ChatTarget;
  partnerName: string;
  isDisabled: boolean;
  onSent: (answer: SendMessageResponse) => void;
  /** A refusal, with what was refused (the not-enough-credits dialog names its price). */
  onFailed: (error: unknown, kind: 'gift' | 'photo') => void;
}) {
  const { t } = useTranslation();
  const [isGiftOpen, setIsGiftOpen] = useState(false);
  return (
    <div className="chat-tools d-flex gap-1" data-testid="chat-tools">
      <button
        type="button"
        className="btn btn-light chat-tool"
        onClick={() => setIsGiftOpen(true)}
        disabled={isDisabled}
        aria-label={t('chat.giftButton')}
        title={t('chat.giftButton')}
        data-testid="chat-gift-button"
      >
        <GiftArt gift="rose" size={22} />
      </button>
      <PhotoSender target={target} isDisabled={isDisabled} onSent={onSent} onFailed={(error) => onFailed(error, 'photo')} />
      <GiftPicker
        isOpen={isGiftOpen}
        onClose={() => setIsGiftOpen(false)}
        target={target}
        partnerName={partnerName}
        onSent={onSent}
        onFailed={(error) => onFailed(error, 'gift')}
      />
    </div>
  );
}

/** The bubble of a gift or photo message (a text message keeps the chat's own bubble). */
export function MediaBubble({ message, partnerName }: { message: Message; partnerName: string }) {
  if (message.kind === 'gift') return <GiftBubble message={message} />;
  return <PhotoBubble message={message} partnerName={partnerName} />;
}
