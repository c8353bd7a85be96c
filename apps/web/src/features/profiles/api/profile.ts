import type { BlockedProfilesResponse, EndpointResponse, OwnPhoto, ProfileUpdate } from '@amora/contracts/core';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@amora/contracts/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, api } from '@/lib/api-client';
import { cachedProfileCard, memberPreview, rememberProfileCards } from '@/shared/profiles/card-cache';
import { userQueryKey } from '@/shared/session/user';

export const ownProfileKey = ['own-profile'] as const;
const memberKey = (id: number) => ['member', id] as const;

export function useOwnProfile() {
  return useQuery({ queryKey: ownProfileKey, queryFn: async () => (await api('GET /api/profile.php')).profile });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ProfileUpdate) => (await api('PUT /api/profile.php', { body: input })).profile,
    onSuccess: (profile) => {
      queryClient.setQueryData(ownProfileKey, profile);
      // The user object carries the country and the search defaults.
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}

/** Photo changes also change the member's main image in the user object. */
function usePhotoMutation<T>(call: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ownProfileKey });
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}

export const useDeletePhoto = () => usePhotoMutation((id: number) => api('DELETE /api/photos.php', { body: { id } }));
export const useSetMainPhoto = () => usePhotoMutation((id: number) => api('PUT /api/main-photo.php', { body: { id } }));

/** Upload with progress (fetch cannot report upload progress, XMLHttpRequest can). */
export function uploadPhoto(file: File, onProgress: (fraction: number) => void): Promise<OwnPhoto> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/photos.php');
    xhr.setRequestHeader(CLIENT_HEADER, CLIENT_HEADER_VALUE);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve((xhr.response as EndpointResponse<'POST /api/photos.php'>).photo);
      else reject(new ApiRequestError(xhr.status, xhr.response ?? { error: 'internal_error', message: 'Upload failed' }));
    };
    xhr.onerror = () => reject(new ApiRequestError(0, { error: 'network', message: 'Upload failed' }));
    const form = new FormData();
    form.append('photo', file);
    xhr.send(form);
  });
}

/** member.php: a member's profile as the viewer may see it; its related profiles become cards for the next page. */
export const memberQuery = (id: number) =>
  queryOptions({
    queryKey: memberKey(id),
    queryFn: async ({ client }) => {
      const answer = await api('GET /api/member.php', { query: { id } });
      rememberProfileCards(client, answer.related);
      return answer;
    },
    retry: false,
  });

/**
 * A member's profile page. Opened from a card (search, related profiles) it shows that card at once
 * (placeholderData) while the full answer loads.
 */
export function useMember(id: number) {
  const queryClient = useQueryClient();
  return useQuery({
    ...memberQuery(id),
    placeholderData: () => {
      const card = cachedProfileCard(queryClient, id);
      return card ? memberPreview(card) : undefined;
    },
  });
}

export function useBlock(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isBlocking: boolean) => api(isBlocking ? 'POST /api/block.php' : 'DELETE /api/block.php', { body: { profile_id: id } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: blockedKey });
      return queryClient.invalidateQueries({ queryKey: memberKey(id) });
    },
  });
}

const blockedKey = ['blocked-profiles'] as const;

/** The members I blocked (settings), the latest first. */
export function useBlockedProfiles() {
  return useQuery({ queryKey: blockedKey, queryFn: async () => (await api('GET /api/blocks.php')).profiles });
}

/** Unblocks one member of my list: off the list at once, and their page shows them as before. */
export function useUnblock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api('DELETE /api/block.php', { body: { profile_id: id } }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData(blockedKey, (list: BlockedProfilesResponse['profiles'] | undefined) => list?.filter((p) => p.id !== id));
      void queryClient.invalidateQueries({ queryKey: memberKey(id) });
    },
  });
}

export const geocode = (lat: number, lon: number) => api('GET /api/geocode.php', { query: { lat, lon } });
