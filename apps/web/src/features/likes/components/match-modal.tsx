import './likes.css';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { HeartIcon } from '@/components/ui/heart-icon';
import { ShowMatchContext, type ShownMatch } from '@/shared/modals/show-match';
import { useSettings } from '@/shared/site/api/get-settings';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { useLocalePath } from '@/shared/site/use-locale';

/**
 * The match modal of spec §2: a heart that pops in, the profile's main image and a button. A click anywhere
 * closes it; the image and the button open the profile (a liked-by profile through /likes/m/{id}, which marks
 * the like as seen). A match leads to the chat first ("Send a message"), the profile under it. It opens on my
 * like that makes a match, and live for the one who liked first (lib's live socket, a `match` frame).
 */
export function MatchModalProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<(ShownMatch & { seq: number }) | null>(null);
  const show = useCallback((match: ShownMatch) => setShown((current) => ({ ...match, seq: (current?.seq ?? 0) + 1 })), []);
  const close = useCallback(() => setShown(null), []);
  const value = useMemo(() => show, [show]);
  return (
    <ShowMatchContext.Provider value={value}>
      {children}
      <Dialog isOpen={shown !== null} onClose={close} labelledBy="match-title" testId="match-modal" size="sm">
        {shown && <MatchContent key={shown.seq} match={shown} onClose={close} />}
      </Dialog>
    </ShowMatchContext.Provider>
  );
}

function MatchContent({ match, onClose }: { match: ShownMatch; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const navigate = useNavigate();
  const localize = useLocalePath();
  const openProfile = () => {
    onClose();
    navigate(localize(match.kind === 'liked' ? `/likes/m/${match.id}` : `/members/${match.id}`));
  };
  const openChat = () => {
    onClose();
    navigate(localize(`/members/${match.id}/chat`));
  };
  return (
    // A click anywhere closes the modal (spec §2); keyboard users have Escape and the buttons.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the dialog, the buttons take Enter
    // biome-ignore lint/a11y/noStaticElementInteractions: the whole modal is a click target by design
    <div className="modal-body text-center px-4 py-4" onClick={onClose} data-testid="match-modal-body" data-profile-id={match.id}>
      <div className="match-heart" aria-hidden="true">
        <HeartIcon size={64} />
      </div>
      <h2 className="h4 mt-2 mb-1" id="match-title">
        {match.kind === 'match' ? t('likes.matchModal.title') : t('likes.matchModal.likesYou', { name: match.name })}
      </h2>
      {match.kind === 'match' && match.name && <p className="mb-0">{t('likes.matchModal.text', { name: match.name })}</p>}
      {match.imageUrl && (
        <button type="button" className="match-image-button d-block mx-auto mt-3" onClick={openProfile} data-testid="match-image">
          <img src={match.imageUrl} alt={t('likes.matchModal.photo', { name: match.name })} />
        </button>
      )}
      {match.isFictional && (
        <p
          className="small text-body-secondary mt-3 mb-0 d-flex align-items-center justify-content-center gap-1"
          data-testid="match-fictional"
        >
          <FictionalIcon size={18} isDecorative />
          {settings.fictional_singular}
        </p>
      )}
      {match.kind === 'match' ? (
        // A match: say hello (issue: "Send a message", not only the profile); the profile stays a click away.
        <div className="d-flex flex-column align-items-center gap-1 mt-3">
          <button type="button" className="btn btn-primary" onClick={openChat} data-autofocus data-testid="match-send-message">
            {t('likes.matchModal.sendMessage')}
          </button>
          <button type="button" className="btn btn-link" onClick={openProfile} data-testid="match-view-profile">
            {t('likes.matchModal.viewProfile')}
          </button>
        </div>
      ) : (
        <button type="button" className="btn btn-primary mt-3" onClick={openProfile} data-autofocus data-testid="match-view-profile">
          {t('likes.matchModal.viewProfile')}
        </button>
      )}
    </div>
  );
}
