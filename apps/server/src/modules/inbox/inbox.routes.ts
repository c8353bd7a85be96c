import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { PHOTO_HEADERS } from '../../plugins/security-headers';
import { requireStaff } from '../../plugins/staff-auth';
import { MAX_PHOTO_BYTES, readPhotoUpload } from '../photos/photos.service';
import {
  addFictionalProfilePhoto,
  answer,
  claimConversation,
  conversation,
  conversationPhoto,
  createFictionalProfile,
  editFictionalProfile,
  fictionalProfilePhoto,
  fictionalProfiles,
  inbox,
  releaseConversation,
} from './inbox.service';

/** Operators answer as the fictional profiles (admins always may). */
const OPERATOR = ['operator'] as const;

/** The fictional-profile inbox and the fictional profiles in the console (plugins/staff-auth.ts guards each route). */
export const inboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const actorOf = (request: FastifyRequest) => ({ staffId: requireStaff(request).staff.id, ip: request.ip });

  app.route({
    ...endpoint('GET /api/console/inbox'),
    config: { staff: [...OPERATOR] },
    handler: async (request) => inbox(ctx, actorOf(request), request.query),
  });

  app.route({
    ...endpoint('GET /api/console/inbox/:conversationId'),
    config: { staff: [...OPERATOR] },
    handler: async (request) => conversation(ctx, actorOf(request), request.params.conversationId, request.query.before),
  });

  app.route({
    ...endpoint('GET /api/console/inbox/:conversationId/photos/:photoId'),
    config: { staff: [...OPERATOR] },
    handler: async (request, reply) => {
      const bytes = await conversationPhoto(ctx, request.params.conversationId, request.params.photoId);
      return reply.header('content-type', 'image/webp').header('cache-control', 'private, no-store').headers(PHOTO_HEADERS).send(bytes);
    },
  });

  app.route({
    ...endpoint('POST /api/console/inbox/:conversationId/claim'),
    config: { staff: [...OPERATOR] },
    handler: async (request) => claimConversation(ctx, actorOf(request), request.params.conversationId),
  });

  app.route({
    ...endpoint('DELETE /api/console/inbox/:conversationId/claim'),
    config: { staff: [...OPERATOR] },
    handler: async (request) => {
      await releaseConversation(ctx, actorOf(request), request.params.conversationId);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('POST /api/console/inbox/:conversationId/messages'),
    config: { staff: [...OPERATOR] },
    handler: async (request) => answer(ctx, actorOf(request), request.params.conversationId, request.body.text),
  });

  app.route({
    ...endpoint('GET /api/console/fictional-profiles'),
    config: { staff: [...OPERATOR] },
    handler: async (request) => fictionalProfiles(ctx, request.query),
  });

  app.route({
    ...endpoint('POST /api/console/fictional-profiles'),
    config: { staff: [...OPERATOR] },
    handler: async (request) => createFictionalProfile(ctx, actorOf(request), request.body),
  });

  app.route({
    ...endpoint('PUT /api/console/fictional-profiles/:id'),
    config: { staff: [...OPERATOR] },
    handler: async (request) => editFictionalProfile(ctx, actorOf(request), request.params.id, request.body),
  });

  // The photo upload takes multipart bodies, in a scope of its own.
  await app.register(async (upload) => {
    await upload.register(fastifyMultipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5, parts: 6 } });
    upload.withTypeProvider<ZodTypeProvider>().route({
      ...endpoint('POST /api/console/fictional-profiles/:id/photos'),
      config: { staff: [...OPERATOR] },
      handler: async (request) => addFictionalProfilePhoto(ctx, actorOf(request), request.params.id, await readPhotoUpload(request)),
    });
  });

  app.route({
    ...endpoint('GET /api/console/fictional-profiles/:id/photo'),
    config: { staff: [...OPERATOR] },
    handler: async (request, reply) => {
      const bytes = await fictionalProfilePhoto(ctx, request.params.id);
      return reply.header('content-type', 'image/webp').header('cache-control', 'private, no-store').headers(PHOTO_HEADERS).send(bytes);
    },
  });
};
