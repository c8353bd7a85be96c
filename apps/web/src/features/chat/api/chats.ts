import type { Chat, ChatsResponse, MessagesQuery, SendMessageInput, SendMessageResponse } from '@amora/contracts';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE, type EndpointResponse, POLL } from '@amora/contracts/core';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, api } from '@/lib/api-client';
import { usePollInterval } from '@/shared/session/polling';
import { useUser } from '@/shared/session/user';
import { useLiveConnected } from './live-channel';

export const chatsQueryKey = ['chats'] as const;

const fetchChats = () => api('GET /api/chats.php');
export const fetchMessages = (query: MessagesQuery) => api('GET /api/messages.php', { query: { ...query } });
export const postMessage = (input: SendMessageInput) => api('POST /api/messages.php', { body: input });
export const postChatRead = (conversation: number) => api('POST /api/chat-read.php', { body: { conversation } });

/** chats.php: my chats and the unread messages in all of them. */
export const chatsQuery = () => queryOptions({ queryKey: chatsQueryKey, queryFn: fetchChats, staleTime: POLL.intervalMs });

/**
 * My chats (spec §3 chat state), for members only; polled like likes and the user (from 5 s after load every
 * 60 s, 300 s when push-subscribed), and every 300 s too while the live channel is open (its frames reload the list).
 */
export function useChats() {
  const user = useUser();
  const interval = usePollInterval({ slower: useLiveConnected() });
  return useQuery({
    ...chatsQuery(),
    enabled: user !== null,
    refetchInterval: (query) => (query.state.data ? interval : false),
  });
}

/** Unread messages of the logged-in member, in all chats (0 for visitors and while loading). */
export function useUnreadMessages(): number {
  return useChats().data?.num_unread_messages ?? 0;
}

/** Changes one chat in the cached list (and keeps the total of unread messages true). */
export function updateCachedChat(queryClient: QueryClient, conversationId: number, change: (chat: Chat) => Chat | null): void {
  queryClient.setQueryData<ChatsResponse>(chatsQueryKey, (data) => {
    if (!data) return data;
    const chats = data.chats.flatMap((chat) => {
      if (chat.conversation.id !== conversationId) return [chat];
      const next = change(chat);
      return next ? [next] : [];
    });
    return { chats, num_unread_messages: chats.reduce((sum, chat) => sum + chat.num_unread_messages, 0) };
  });
}

/**
 * Removing a chat (spec §4): it leaves the list at once; when the server refuses, the spec's alert is shown and
 * the list is loaded again.
 */
export function useDeleteChat(onFailure: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conversation: number) => api('DELETE /api/chat.php', { body: { conversation } }),
    onMutate: async (conversation) => {
      await queryClient.cancelQueries({ queryKey: chatsQueryKey });
      updateCachedChat(queryClient, conversation, () => null);
    },
    onError: () => {
      onFailure();
      void queryClient.invalidateQueries({ queryKey: chatsQueryKey });
    },
  });
}

/** The member I open a new chat with (member.php), for the chat's header before the first message. */
export function useChatPartner(profileId: number, isEnabled: boolean) {
  return useQuery({
    enabled: isEnabled,
    queryKey: ['member', profileId],
    queryFn: () => api('GET /api/member.php', { query: { id: profileId } }),
    retry: false,
  });
}

/** POST /api/chat-photo-reveal.php: I want to see a photo I was sent unblurred (remembered). */
export const postPhotoReveal = (message: number) => api('POST /api/chat-photo-reveal.php', { body: { message } });

/** POST /api/chat-photo.php: a photo message, with upload progress (fetch cannot report it, XMLHttpRequest can). */
export function uploadChatPhoto(
  to: { conversation: number } | { profile: number },
  clientId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<SendMessageResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams({ ...Object.fromEntries(Object.entries(to).map(([k, v]) => [k, String(v)])), client_id: clientId });
    xhr.open('POST', `/api/chat-photo.php?${query}`);
    xhr.setRequestHeader(CLIENT_HEADER, CLIENT_HEADER_VALUE);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response as EndpointResponse<'POST /api/chat-photo.php'>);
      else reject(new ApiRequestError(xhr.status, xhr.response ?? { error: 'internal_error', message: 'Upload failed' }));
    };
    xhr.onerror = () => reject(new ApiRequestError(0, { error: 'network', message: 'Upload failed' }));
    const form = new FormData();
    form.append('photo', file);
    xhr.send(form);
  });
}
