import {
  chatPhotoQuerySchema,
  chatPhotoRevealSchema,
  chatsResponseSchema,
  conversationTargetSchema,
  messageSchema,
  messagesQuerySchema,
  messagesResponseSchema,
  okResponseSchema,
  sendMessageResponseSchema,
  sendMessageSchema,
  sendPhotoFieldsSchema,
} from '@amora/contracts';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { PHOTO_HEADERS } from '../../plugins/security-headers';
import { checkProcessingRoom, checkUploadRate, MAX_PHOTO_BYTES, readPhotoUpload } from '../photos/photos.service';
import { listChats, listMessages, openChat, readMessagePhoto, removeChat, revealPhoto, sendMessage, sendPhoto } from './chat.service';

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
      const { conversation, profile, body, gift, client_id } = request.body;
      return sendMessage(ctx, requireAuth(request), { conversation, profile, body, gift, clientId: client_id });
    },
  );

  // Photo messages: the upload takes multipart bodies, in a scope of its own.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    await scope.register(fastifyMultipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 0, parts: 1 } });
    scope.post(
      '/api/chat-photo.php',
      {
        schema: {
          ...tag('Send a photo message (costs photo_credits): the file in the multipart field "photo", the chat in the query'),
          consumes: ['multipart/form-data'],
          querystring: sendPhotoFieldsSchema,
          response: { 200: sendMessageResponseSchema },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        const { conversation, profile, client_id } = request.query;
        try {
          await checkUploadRate(ctx, auth.user.id);
          checkProcessingRoom();
          const buffer = await readPhotoUpload(request);
          return await sendPhoto(ctx, auth, { conversation, profile, clientId: client_id, buffer });
        } catch (error) {
          const retryAfter = error instanceof HttpError ? error.extra.retry_after_seconds : undefined;
          if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
          throw error;
        }
      },
    );
  });

  app.get(
    '/api/chat-photo.php',
    {
      schema: {
        ...tag("A photo message's file, to its two members only (the sharp one to the recipient once revealed), else 404"),
        querystring: chatPhotoQuerySchema,
      },
    },
    async (request, reply) => {
      // Private to two members, and a reveal changes what is allowed: never kept by a shared cache.
      reply.header('cache-control', 'private, no-store');
      const bytes = await readMessagePhoto(ctx, requireAuth(request), request.query.message, request.query.v);
      if (!bytes) throw notFound('Photo not found');
      return reply.header('content-type', 'image/webp').headers(PHOTO_HEADERS).send(bytes);
    },
  );

  app.post(
    '/api/chat-photo-reveal.php',
    {
      schema: {
        ...tag('I want to see a photo I was sent unblurred (remembered)'),
        body: chatPhotoRevealSchema,
        response: { 200: z.object({ message: messageSchema }) },
      },
    },
    async (request) => ({ message: await revealPhoto(ctx, requireAuth(request), request.body.message) }),
  );
};
