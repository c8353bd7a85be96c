import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError, notFound } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { PHOTO_HEADERS } from '../../plugins/security-headers';
import { checkProcessingRoom, checkUploadRate, MAX_PHOTO_BYTES, readPhotoUpload } from '../photos/photos.service';
import { sendMessage, sendPhoto } from './chat.service';
import { listChats, listMessages, openChat, readMessagePhoto, removeChat, revealPhoto } from './chat-read.service';

/** Chat (spec §2 chats, chats-id, members-id-chat; §4; §7 chats.php and chat.php; the message calls in their style). */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('GET /api/chats.php'),
    handler: async (request) => listChats(ctx, requireAuth(request)),
  });

  app.route({
    ...endpoint('DELETE /api/chat.php'),
    handler: async (request) => {
      await removeChat(ctx, requireAuth(request), request.body.conversation);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('POST /api/chat-read.php'),
    handler: async (request) => {
      await openChat(ctx, requireAuth(request), request.body.conversation);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('GET /api/messages.php'),
    handler: async (request) => listMessages(ctx, requireAuth(request), request.query),
  });

  app.route({
    ...endpoint('POST /api/messages.php'),
    handler: async (request) => {
      const { conversation, profile, body, gift, client_id } = request.body;
      return sendMessage(ctx, requireAuth(request), { conversation, profile, body, gift, clientId: client_id });
    },
  });

  // Photo messages: the upload takes multipart bodies, in a scope of its own.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    await scope.register(fastifyMultipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 0, parts: 1 } });
    scope.route({
      ...endpoint('POST /api/chat-photo.php'),
      handler: async (request, reply) => {
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
    });
  });

  app.route({
    ...endpoint('GET /api/chat-photo.php'),
    handler: async (request, reply) => {
      // Private to two members, and a reveal changes what is allowed: never kept by a shared cache.
      reply.header('cache-control', 'private, no-store');
      const bytes = await readMessagePhoto(ctx, requireAuth(request), request.query.message, request.query.v);
      if (!bytes) throw notFound('Photo not found');
      return reply.header('content-type', 'image/webp').headers(PHOTO_HEADERS).send(bytes);
    },
  });

  app.route({
    ...endpoint('POST /api/chat-photo-reveal.php'),
    handler: async (request) => ({ message: await revealPhoto(ctx, requireAuth(request), request.body.message) }),
  });
};
