import './likes.css';
import { AUTO_LIKE_DELAY_MS, LIKE_MODAL_MAX_DELAY_S, LIKES_RELOAD_DELAY_MS, MEMBERS_AREA, type RouteName } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { HeartIcon } from '@/components/ui/heart-icon';
import { useShowMatch } from '@/shared/modals/show-match';
import { likesQueryKey, useLikes } from '@/shared/session/likes';
import { LocalLink } from '@/shared/site/local-link';
import { useTitleCount } from '@/shared/site/use-page-title';
import { useRouteName } from '@/shared/site/use-route-name';
import { fetchAutoLike } from '../api/likes';

// Once per page load: a new document starts over, moving between pages does not.
let isAutoLikeRequested = false;
let membersAreaEnteredAt: number | null = null;

const isMembersArea = (route: string | undefined) => route !== undefined && MEMBERS_AREA.includes(route as RouteName);

/** The `t` query (spec §9): seconds until the like modal opens; anything else means no modal. */
function parseDelay(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= LIKE_MODAL_MAX_DELAY_S ? seconds : null;
}

/**
 * Likes behaviour of the default layout, for members:
 * - new likes go into the tab title prefix and the app badge (spec §2);
 * - the auto-like (spec §7): once per page load, 20 s after the member entered the members area (counted while
 *   they are in it), GET /api/auto-like.php; a profile that comes back is shown in the match modal and the likes
 *   are reloaded 500 ms later (spec §9);
 * - the like modal (spec §2, §9): when the page was opened with `?t=<seconds>`, after that long a modal says
 *   someone likes you, with a button to the newest of them (or to /likes).
 */
export function AutoLike() {
  const likes = useLikes();
  const route = useRouteName();
  const showMatch = useShowMatch();
  const queryClient = useQueryClient();
  useTitleCount('likes', likes.data?.new_likes ?? 0);

  const isInArea = isMembersArea(route);
  useEffect(() => {
    if (isAutoLikeRequested || !isInArea) return;
    membersAreaEnteredAt ??= Date.now();
    const timer = window.setTimeout(
      () => {
        if (isAutoLikeRequested) return;
        isAutoLikeRequested = true;
        fetchAutoLike().then(
          ({ profile }) => {
            if (!profile) return;
            showMatch({
              kind: 'liked',
              id: profile.id,
              name: profile.name,
              isFictional: profile.is_fictional,
              imageUrl: profile.main_image?.match ?? null,
            });
            // Not cleared on unmount: the likes must reload even when the page changed meanwhile.
            window.setTimeout(() => void queryClient.invalidateQueries({ queryKey: likesQueryKey }), LIKES_RELOAD_DELAY_MS);
          },
          () => {},
        );
      },
      Math.max(0, membersAreaEnteredAt + AUTO_LIKE_DELAY_MS - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [isInArea, showMatch, queryClient]);

  return <LikeModal newestId={likes.data?.liked_by[0]?.id ?? null} />;
}

function LikeModal({ newestId }: { newestId: number | null }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Read once: the page may redirect (the index sends members on to /members) and drop the query.
  const [delay] = useState(() => parseDelay(params.get('t')));
  const [isOpen, setIsOpen] = useState(false);

  useEffect(() => {
    if (delay === null) return;
    const timer = window.setTimeout(() => setIsOpen(true), delay * 1000);
    return () => window.clearTimeout(timer);
  }, [delay]);

  const close = () => setIsOpen(false);
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
        <LocalLink
          to={newestId ? `/likes/m/${newestId}` : '/likes'}
          className="btn btn-primary"
          onClick={close}
          data-autofocus
          data-testid="like-modal-view"
        >
          {newestId ? t('likes.likeModal.viewProfile') : t('likes.likeModal.viewLikes')}
        </LocalLink>
      </div>
    </Dialog>
  );
}
