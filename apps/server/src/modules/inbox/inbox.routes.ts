import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { PHOTO_HEADERS } from '../../plugins/security-headers';
import { requireStaff } from '../../plugins/staff-auth';
import { MAX_PHOTO_BYTES, readPhotoUpload } from '../photos/photos.service';
import { staffSessionAllows } from '../staff/staff.service';
import type { ConsoleLiveHub } from './console-live.hub';
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

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's open console streams (modules/inbox/console-live.hub.ts). */
    consoleLive: ConsoleLiveHub;
  }
}

/** Operators answer as the fictional profiles (admins always may). */
const OPERATOR = ['operator'] as const;

export interface InboxRoutesOptions {
  /** Milliseconds between the console streams' heartbeats and session checks (25 s by default). */
  liveHeartbeatMs?: number;
}

/** The fictional-profile inbox and the fictional profiles in the console (plugins/staff-auth.ts guards each route). */
export const inboxRoutes: FastifyPluginAsyncZod<InboxRoutesOptions> = async (app, options) => {
  const { ctx } = app;
  const hub = app.consoleLive;
  const actorOf = (request: FastifyRequest) => ({ staffId: requireStaff(request).staff.id, ip: request.ip });

  // Streams end at shutdown, before the server waits for its connections (their browsers open one elsewhere).
  app.addHook('preClose', (done) => {
    hub.closeAll();
    done();
  });
  // A session that ran out or went idle is announced by no event: each beat checks every stream's.
  hub.start((stream) => staffSessionAllows(ctx, stream.sessionId, stream.roles), options.liveHeartbeatMs);

  /**
   * The console's live channel (Server-Sent Events): `ready`, then an `inbox` frame whenever a conversation with a
   * fictional profile changes on any process (console-live.listeners.ts); the console reads the inbox again. It
   * ends with `ended` when the session does (a sign-out, ended elsewhere, made inactive, another role) and
   * without it at shutdown.
   */
  app.route({
    ...endpoint('GET /api/console/live'),
    config: { staff: [...OPERATOR] },
    handler: async (request, reply) => {
      const auth = requireStaff(request);
      const stream = hub.open({ staffId: auth.staff.id, sessionId: auth.sessionId, roles: OPERATOR });
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(stream.out);
    },
  });

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
