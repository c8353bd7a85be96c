import { okResponseSchema } from '../content';
import {
  fictionalProfileInputSchema,
  fictionalProfileListSchema,
  fictionalProfileParamsSchema,
  fictionalProfileResponseSchema,
  fictionalProfilesQuerySchema,
  fictionalProfileUpdateSchema,
  inboxAnsweredSchema,
  inboxAnswerSchema,
  inboxClaimedSchema,
  inboxConversationQuerySchema,
  inboxConversationSchema,
  inboxListSchema,
  inboxParamsSchema,
  inboxPhotoParamsSchema,
  inboxQuerySchema,
} from '../inbox';
import { type EndpointTable, unchecked } from './endpoint';

/**
 * The fictional-profile inbox in the console (operators and admins): members' messages to fictional profiles
 * waiting for an answer, a claim so two operators never answer one conversation at once, the answer written by
 * hand as the fictional profile, and the fictional profiles themselves. Every action is audited.
 */
export const consoleInboxEndpoints = {
  'GET /api/console/inbox': {
    tag: 'console',
    summary: 'Conversations with a fictional profile whose last message is the member’s, the longest waiting first',
    query: inboxQuerySchema,
    response: inboxListSchema,
  },
  'GET /api/console/inbox/:conversationId': {
    tag: 'console',
    summary: 'A conversation with a fictional profile (paged back with `before`), the member’s and the fictional profile’s profiles',
    params: inboxParamsSchema,
    query: inboxConversationQuerySchema,
    response: inboxConversationSchema,
  },
  'GET /api/console/inbox/:conversationId/photos/:photoId': {
    tag: 'console',
    summary: 'The main photo of one of the conversation’s two profiles, a WebP thumbnail (console only)',
    params: inboxPhotoParamsSchema,
    response: unchecked('binary', 'image/webp'),
  },
  'POST /api/console/inbox/:conversationId/claim': {
    tag: 'console',
    summary: 'Claim the conversation to answer it (or renew one’s claim); 409 while another operator holds it',
    params: inboxParamsSchema,
    response: inboxClaimedSchema,
  },
  'DELETE /api/console/inbox/:conversationId/claim': {
    tag: 'console',
    summary: 'Release one’s own claim',
    params: inboxParamsSchema,
    response: okResponseSchema,
  },
  'POST /api/console/inbox/:conversationId/messages': {
    tag: 'console',
    summary: 'Answer as the fictional profile (one’s own live claim needed); the claim ends with it',
    params: inboxParamsSchema,
    body: inboxAnswerSchema,
    response: inboxAnsweredSchema,
  },
  'GET /api/console/live': {
    tag: 'console',
    summary:
      'The console’s live channel (Server-Sent Events): a notice when a conversation with a fictional profile changes, so the inbox reads it again',
    response: unchecked('event-stream', 'text/event-stream, one `data:` line per frame: consoleLiveFrameSchema (inbox.ts)'),
  },
  'GET /api/console/fictional-profiles': {
    tag: 'console',
    summary: 'The fictional profiles, per site',
    query: fictionalProfilesQuerySchema,
    response: fictionalProfileListSchema,
  },
  'POST /api/console/fictional-profiles': {
    tag: 'console',
    summary: 'Create a fictional profile on a site (always labelled fictional)',
    body: fictionalProfileInputSchema,
    response: fictionalProfileResponseSchema,
  },
  'PUT /api/console/fictional-profiles/:id': {
    tag: 'console',
    summary: 'Edit a fictional profile, or retire it (status)',
    params: fictionalProfileParamsSchema,
    body: fictionalProfileUpdateSchema,
    response: fictionalProfileResponseSchema,
  },
  'POST /api/console/fictional-profiles/:id/photos': {
    tag: 'console',
    summary: 'Add a photo to a fictional profile (multipart field "photo"; the first becomes its main photo)',
    params: fictionalProfileParamsSchema,
    consumes: ['multipart/form-data'],
    response: fictionalProfileResponseSchema,
  },
  'GET /api/console/fictional-profiles/:id/photo': {
    tag: 'console',
    summary: 'A fictional profile’s main photo, a WebP thumbnail (console only)',
    params: fictionalProfileParamsSchema,
    response: unchecked('binary', 'image/webp'),
  },
} satisfies EndpointTable;
