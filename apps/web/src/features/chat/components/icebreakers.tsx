import { ICEBREAKER_COUNT } from '@amora/contracts';
import { useTranslation } from 'react-i18next';
import './chat-media.css';

/**
 * Opening lines for an empty chat (spec §2: icebreakers in the chat window). Tapping one fills the composer; the
 * member may change it, and sending it is an ordinary message at the ordinary price.
 */
export function Icebreakers({ onPick }: { onPick: (text: string) => void }) {
  const { t } = useTranslation();
  const lines = Array.from({ length: ICEBREAKER_COUNT }, (_, i) => t(`chat.icebreakers.${i + 1}`));
  return (
    <section className="chat-icebreakers" data-testid="icebreakers">
      <h2 className="small text-body-secondary fw-normal mb-2">{t('chat.icebreakersTitle')}</h2>
      <ul className="list-unstyled m-0">
        {lines.map((line) => (
          <li key={line}>
            <button type="button" className="chat-icebreaker" onClick={() => onPick(line)}>
              {line}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
