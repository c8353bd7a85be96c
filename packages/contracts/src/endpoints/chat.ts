import {
  chatPhotoRevealResponseSchema,
  chatsResponseSchema,
  conversationTargetSchema,
  messagesQuerySchema,
  messagesResponseSchema,
  sendMessageResponseSchema,
  sendMessageSchema,
} from '../chat';
import { chatPhotoQuerySchema, chatPhotoRevealSchema, sendPhotoFieldsSchema } from '../chat-media';
import { chatReportResponseSchema, chatReportSchema, readReceiptsResponseSchema, readReceiptsSchema } from '../chat-safety';
import { okResponseSchema } from '../content';
import { type EndpointTable, unchecked } from './endpoint';

/** Chat: chats, messages, photo messages, reports, read receipts and the live channel. */
export const chatEndpoints = {
  'GET /api/chats.php': {
    tag: 'chat',
    summary: 'My chats, the latest first, with their unread counts',
    response: chatsResponseSchema,
  },
  'DELETE /api/chat.php': {
    tag: 'chat',
    summary: 'Remove a chat for me (the other member keeps it)',
    body: conversationTargetSchema,
    response: okResponseSchema,
  },
  'POST /api/chat-read.php': {
    tag: 'chat',
    summary: 'I opened a chat: its unread count becomes 0',
    body: conversationTargetSchema,
    response: okResponseSchema,
  },
  'GET /api/messages.php': {
    tag: 'chat',
    summary: 'Messages of a chat of mine: after a sequence, before one, or the newest',
    query: messagesQuerySchema,
    response: messagesResponseSchema,
  },
  'POST /api/messages.php': {
    tag: 'chat',
    summary: 'Send a message (paid with credits); a retry with the same client_id answers the first send',
    body: sendMessageSchema,
    response: sendMessageResponseSchema,
  },
  'POST /api/chat-photo.php': {
    tag: 'chat',
    summary: 'Send a photo message (costs photo_credits): the file in the multipart field "photo", the chat in the query',
    consumes: ['multipart/form-data'],
    query: sendPhotoFieldsSchema,
    response: sendMessageResponseSchema,
  },
  'GET /api/chat-photo.php': {
    tag: 'chat',
    summary: "A photo message's file, to its two members only (the sharp one to the recipient once revealed), else 404",
    query: chatPhotoQuerySchema,
    response: unchecked('binary', 'image/webp'),
  },
  'POST /api/chat-photo-reveal.php': {
    tag: 'chat',
    summary: 'I want to see a photo I was sent unblurred (remembered)',
    body: chatPhotoRevealSchema,
    response: chatPhotoRevealResponseSchema,
  },
  'POST /api/chat-report.php': {
    tag: 'chat',
    summary: 'Report to moderation the other member of a chat of mine, one of their messages, or a profile',
    body: chatReportSchema,
    response: chatReportResponseSchema,
  },
  'POST /api/read-receipts.php': {
    tag: 'chat',
    summary: 'Turn my read receipts on or off (off: the other side sees no "Seen" from me, and I none from them)',
    body: readReceiptsSchema,
    response: readReceiptsResponseSchema,
  },
  'GET /api/live': {
    tag: 'chat',
    summary: 'The live channel: a WebSocket that says when to fetch (frames in live.ts)',
    hide: true,
    response: unchecked('websocket', 'JSON frames: liveServerFrameSchema out, liveClientFrameSchema in (live.ts)'),
  },
} satisfies EndpointTable;
