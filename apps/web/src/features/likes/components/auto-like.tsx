import './likes.css';
import { AUTO_LIKE_DELAY_MS, LIKES_RELOAD_DELAY_MS, MEMBERS_AREA, type RouteName } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useShowMatch } from '@/shared/modals/show-match';
import { likesQueryKey, useLikes } from '@/shared/session/likes';
import { useTitleCount } from '@/shared/site/use-page-title';
import { useRouteName } from '@/shared/site/use-route-name';
import { fetchAutoLike } from '../api/likes';
import { LikeModal } from './like-modal';

// Once per page load: a new document starts over, moving between pages does not.
let isAutoLikeRequested = false;
let membersAreaEnteredAt: number | null = null;

const isMembersArea = (route: string | undefined) => route !== undefined && MEMBERS_AREA.includes(route as RouteName);

/**
 * Likes behaviour of the default layout, for members:
 * - new likes go into the tab title prefix and the app badge (spec §2);
 * - the auto-like (spec §7): once per page load, 20 s after the member entered the members area (counted while
 *   they are in it), GET /api/auto-like.php; a profile that comes back is shown in the match modal and the likes
 *   are reloaded 500 ms later (spec §9);
 * - the like modal (like-modal.tsx), with a button to the newest like (or to /likes).
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
