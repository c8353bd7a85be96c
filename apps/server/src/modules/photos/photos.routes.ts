import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { PHOTO_HEADERS } from '../../plugins/security-headers';
import type { Auth } from '../sessions/sessions.service';
import { MAX_PHOTO_BYTES } from './photo-processing';
import { presentOwnPhoto } from './photos.presenter';
import {
  addPhoto,
  checkProcessingRoom,
  checkUploadRate,
  deletePhoto,
  listOwnPhotos,
  photoLimitFor,
  readLanderPhoto,
  readPhotoUpload,
  readVisiblePhoto,
  setMainPhoto,
  setPremiumForDev,
} from './photos.service';

/** The member's own photos (upload, list, delete, main photo) and the access-checked photo file route. */
/** The main photo shows on the member's cards and page: it is part of the profile (profile.changed). */
function mainPhotoChanged(ctx: AppContext, auth: Auth): void {
  ctx.events.publish({ type: 'profile.changed', siteId: auth.profile.siteId, profileId: auth.profile.id, fields: ['main_photo'] });
}

export const photosRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  // Only this plugin's routes accept multipart bodies.
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5, parts: 6 } });

  app.route({
    ...endpoint('POST /api/photos.php'),
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      try {
        await checkUploadRate(ctx, auth.user.id);
        checkProcessingRoom();
        const buffer = await readPhotoUpload(request);
        const { photo, isMain } = await addPhoto(ctx, {
          profileId: auth.profile.id,
          userId: auth.user.id,
          isPremium: auth.user.paidUser,
          isModerated: request.site.moderatePhotos,
          buffer,
        });
        if (isMain) mainPhotoChanged(ctx, auth);
        return { photo: presentOwnPhoto(photo, isMain ? photo.id : null) };
      } catch (error) {
        // A busy queue or a member over the rate: say when to come back, in the header as well as the body.
        const retryAfter = error instanceof HttpError ? error.extra.retry_after_seconds : undefined;
        if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
        throw error;
      }
    },
  });

  app.route({
    ...endpoint('GET /api/photos.php'),
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      reply.header('cache-control', 'private, no-store');
      const { photos, mainPhotoId } = await listOwnPhotos(ctx, auth.profile.id);
      return { photos: photos.map((p) => presentOwnPhoto(p, mainPhotoId)), limit: photoLimitFor(auth.user.paidUser) };
    },
  });

  app.route({
    ...endpoint('DELETE /api/photos.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      if (await deletePhoto(ctx, { profileId: auth.profile.id, photoId: request.body.id })) mainPhotoChanged(ctx, auth);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('PUT /api/main-photo.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await setMainPhoto(ctx, { profileId: auth.profile.id, photoId: request.body.id });
      mainPhotoChanged(ctx, auth);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('GET /api/photo.php'),
    handler: async (request, reply) => {
      const auth = request.auth;
      const viewer = {
        siteId: request.site.id,
        member: auth ? { profileId: auth.profile.id, isPremium: auth.user.paidUser } : null,
      };
      const bytes = await readVisiblePhoto(ctx, viewer, request.query.id, request.query.v);
      if (!bytes) {
        // A refusal must not be cached: the viewer may log in, upgrade or be unblocked.
        reply.header('cache-control', 'private, no-store');
        throw notFound('Photo not found');
      }
      return reply.header('content-type', 'image/webp').header('cache-control', 'private, max-age=3600').headers(PHOTO_HEADERS).send(bytes);
    },
  });

  app.route({
    ...endpoint('GET /api/lander-photo.php'),
    handler: async (request, reply) => {
      const bytes = await readLanderPhoto(ctx, request.site.id, request.query.id, request.query.w);
      if (!bytes) {
        reply.header('cache-control', 'no-store');
        throw notFound('Photo not found');
      }
      // The same for every visitor of the site (a fictional profile's main photo): kept by the browser and any cache.
      return reply.header('content-type', 'image/webp').header('cache-control', 'public, max-age=86400').headers(PHOTO_HEADERS).send(bytes);
    },
  });

  if (!ctx.config.isProduction) {
    app.route({
      ...endpoint('POST /api/dev/premium.php'),
      handler: async (request) => {
        const auth = requireAuth(request);
        await setPremiumForDev(ctx, auth.user.id, request.body.paid);
        return { ok: true as const };
      },
    });
  }
};
