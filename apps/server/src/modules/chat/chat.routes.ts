import {
  chatsResponseSchema,
  conversationTargetSchema,
  messagesQuerySchema,
  messagesResponseSchema,
  okResponseSchema,
  sendMessageResponseSchema,
  sendMessageSchema,
} from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { listChats, listMessages, openChat, removeChat, sendMessage } from './chat.service';

/** Chat (spec §2 chats, chats-id, members-id-chat; §4; §7 chats.php and chat.php; the message calls in their style). */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tag = (summary: string) => ({ tags: ['chat'], summary });

  app.get(
    '/api/chats.php',
    { schema: { ...tag('My chats, the latest first, with their unread counts'), response: { 200: chatsResponseSchema } } },
    async (request) => listChats(ctx, requireAuth(request)),
  );

  app.delete(
    '/api/chat.php',
    {
      schema: {
        ...tag('Remove a chat for me (the other member keeps it)'),
        body: conversationTargetSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await removeChat(ctx, requireAuth(request), request.body.conversation);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/chat-read.php',
    {
      schema: {
        ...tag('I opened a chat: its unread count becomes 0'),
        body: conversationTargetSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await openChat(ctx, requireAuth(request), request.body.conversation);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/messages.php',
    {
      schema: {
        ...tag('Messages of a chat of mine: after a sequence, before one, or the newest'),
        querystring: messagesQuerySchema,
        response: { 200: messagesResponseSchema },
      },
    },
    async (request) => listMessages(ctx, requireAuth(request), request.query),
  );

  app.post(
    '/api/messages.php',
    {
      schema: {
        ...tag('Send a message (paid with credits); a retry with the same client_id answers the first send'),
        body: sendMessageSchema,
        response: { 200: sendMessageResponseSchema },
      },
    },
    async (request) => {
      const { conversation, profile, body, client_id } = request.body;
      return sendMessage(ctx, requireAuth(request), { conversation, profile, body, clientId: client_id });
    },
  );
};
