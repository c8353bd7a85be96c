import type { ClientLikeSource } from '@amora/contracts/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { errorText } from '@/lib/error-text';
import { useOpenSignup } from '@/shared/modals/open-signup';
import { useShowMatch } from '@/shared/modals/show-match';
import { useLikes } from '@/shared/session/likes';
import { useUser } from '@/shared/session/user';
import { useLike, useUnlike } from '../api/likes';

export interface LikeButtonProps {
  profileId: number;
  /** Whether I like this profile; when left out it comes from my likes. */
  isLiked?: boolean;
  source: ClientLikeSource;
  /** What the match modal shows when the like is mutual (else taken from my likes). */
  profile?: { name: string; isFictional: boolean; imageUrl: string | null };
  className?: string;
  /** As wide as its container (the profile's action bar on a phone). */
  isBlock?: boolean;
}

/**
 * The heart button (aria-pressed): like, or take the like back. A mutual like opens the match modal.
 * Visitors are asked to sign up (spec §6: login is required to like).
 */
export function LikeButton({ profileId, isLiked, source, profile, className = '', isBlock = false }: LikeButtonProps) {
  const { t } = useTranslation();
  const user = useUser();
  const openSignup = useOpenSignup();
  const likes = useLikes();
  const like = useLike();
  const unlike = useUnlike();
  const showMatch = useShowMatch();
  const [localLiked, setLocalLiked] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const isOn = localLiked ?? isLiked ?? likes.data?.profiles.some((p) => p.id === profileId) ?? false;
  const isBusy = like.isPending || unlike.isPending;

  const handleClick = () => {
    setError(null);
    if (!user) {
      openSignup({ profileId });
      return;
    }
    if (isOn) {
      unlike.mutate(profileId, { onSuccess: () => setLocalLiked(false), onError: (e) => setError(errorText(t, e)) });
      return;
    }
    like.mutate(
      { profileId, source },
      {
        onSuccess: (result) => {
          setLocalLiked(true);
          if (!result.is_match) return;
          const card = likes.data?.liked_by.find((p) => p.id === profileId);
          showMatch({
            kind: 'match',
            id: profileId,
            name: profile?.name ?? card?.name ?? '',
            isFictional: profile?.isFictional ?? card?.is_fictional ?? false,
            imageUrl: profile?.imageUrl ?? card?.thumb_url ?? null,
          });
        },
        onError: (e) => setError(errorText(t, e)),
      },
    );
  };

  return (
    <span className={isBlock ? 'd-flex flex-column' : 'd-inline-flex flex-column align-items-start'}>
      <button
        type="button"
        className={`like-button btn d-inline-flex align-items-center justify-content-center gap-2 ${isOn ? 'btn-outline-primary' : 'btn-primary'} ${isBlock ? 'w-100' : ''} ${className}`}
        aria-pressed={isOn}
        onClick={handleClick}
        disabled={isBusy}
        data-testid="like-button"
      >
        <HeartIcon isFilled={isOn} size={20} />
        {isOn ? t('likes.liked') : t('likes.like')}
      </button>
      {error && (
        <span className="small text-danger mt-1" role="alert" data-testid="like-error">
          {error}
        </span>
      )}
    </span>
  );
}
