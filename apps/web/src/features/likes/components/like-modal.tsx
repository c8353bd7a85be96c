import './likes.css';
import { LIKE_MODAL_MAX_DELAY_S } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { HeartIcon } from '@/components/ui/heart-icon';
import { useOpenSignup } from '@/shared/modals/open-signup';
import { LocalLink } from '@/shared/site/local-link';

/** The `t` query (spec §9): seconds until the like modal opens; anything else means no modal. */
function parseDelay(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= LIKE_MODAL_MAX_DELAY_S ? seconds : null;
}

interface LikeModalProps {
  /** A member's newest like: the button leads to it (or to /likes when there is none). */
  newestId?: number | null;
  /** For a visitor: the view-profile button calls this (signup) instead of leading to a page. */
  onViewProfile?: () => void;
}

/**
 * The like modal of spec §2 and §9: when the page was opened with `?t=<seconds>`, after that long a modal says
 * someone likes you, with a view-profile button. `t` is read once: the page may redirect (the index sends
 * members on to /members) and drop the query.
 */
export function LikeModal({ newestId = null, onViewProfile }: LikeModalProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [delay] = useState(() => parseDelay(params.get('t')));
  const [isOpen, setIsOpen] = useState(false);

  useEffect(() => {
    if (delay === null) return;
    const timer = window.setTimeout(() => setIsOpen(true), delay * 1000);
    return () => window.clearTimeout(timer);
  }, [delay]);

  const close = () => setIsOpen(false);
  const handleView = () => {
    close();
    onViewProfile?.();
  };
  return (
    <Dialog isOpen={isOpen} onClose={close} labelledBy="like-modal-title" testId="like-modal" size="sm">
      <div className="modal-header">
        <h2 className="modal-title h5" id="like-modal-title">
          {t('likes.likeModal.title')}
        </h2>
        <button type="button" className="btn-close" aria-label={t('common.close')} onClick={close} />
      </div>
      <div className="modal-body text-center">
        <div className="match-heart" aria-hidden="true">
          <HeartIcon size={48} />
        </div>
        <p className="mt-2 mb-0">{t('likes.likeModal.text')}</p>
      </div>
      <div className="modal-footer justify-content-center">
        {onViewProfile ? (
          <button type="button" className="btn btn-primary" onClick={handleView} data-autofocus data-testid="like-modal-view">
            {t('likes.likeModal.viewProfile')}
          </button>
        ) : (
          <LocalLink
            to={newestId ? `/likes/m/${newestId}` : '/likes'}
            className="btn btn-primary"
            onClick={close}
            data-autofocus
            data-testid="like-modal-view"
          >
            {newestId ? t('likes.likeModal.viewProfile') : t('likes.likeModal.viewLikes')}
          </LocalLink>
        )}
      </div>
    </Dialog>
  );
}

/**
 * The like modal for a visitor who came with `?t=` (from a campaign): the same modal, and its view-profile
 * button opens signup, since seeing who likes you needs an account (spec §6).
 */
export function VisitorLikeModal() {
  const openSignup = useOpenSignup();
  return <LikeModal onViewProfile={() => openSignup()} />;
}
