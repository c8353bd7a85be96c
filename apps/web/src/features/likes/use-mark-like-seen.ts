import type { LikesResponse } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { likesQueryKey, useLikes } from '@/shared/session/likes';
import { useMarkSeen } from './api/likes';

/**
 * Opening a liked-by profile clears its new-like flag (spec §4): call with the profile's id on /likes/m/{id}
 * (null elsewhere). The badge drops at once; the server is told once per profile and page.
 */
export function useMarkLikeSeen(profileId: number | null): void {
  const likes = useLikes();
  const queryClient = useQueryClient();
  const { mutate } = useMarkSeen();
  const sent = useRef(new Set<number>());
  const isNew = profileId !== null && (likes.data?.liked_by.some((p) => p.id === profileId && p.like_new) ?? false);

  useEffect(() => {
    if (profileId === null || !isNew || sent.current.has(profileId)) return;
    sent.current.add(profileId);
    queryClient.setQueryData<LikesResponse>(likesQueryKey, (old) => {
      if (!old) return old;
      const likedBy = old.liked_by.map((p) => (p.id === profileId ? { ...p, like_new: false } : p));
      return { ...old, liked_by: likedBy, new_likes: likedBy.filter((p) => p.like_new).length };
    });
    mutate(profileId);
  }, [profileId, isNew, queryClient, mutate]);
}
