import { useTranslation } from 'react-i18next';
import { useChatSafety } from './chat-safety-context';

/** "{name} is typing…" under the messages while the partner types (from the live channel's typing frames). */
export function TypingIndicator() {
  const { t } = useTranslation();
  const { isPartnerTyping, partnerName } = useChatSafety();
  return (
    <p className="chat-typing" aria-live="polite" data-testid="chat-typing">
      {isPartnerTyping && (
        <>
          <span className="chat-typing-dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          {t('chatSafety.typing', { name: partnerName })}
        </>
      )}
    </p>
  );
}
