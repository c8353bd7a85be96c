import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { autoLike, likeProfile, listLikes, markLikeSeen, unlikeProfile } from './likes.service';

/** Likes and matches (spec §2 likes pages and match modal, §4, §7 likes.php and auto-like.php). */
export const likesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('POST /api/like.php'),
    handler: async (request) => {
      const { isMatch } = await likeProfile(ctx, {
        liker: requireAuth(request),
        likedProfileId: request.body.profile_id,
        source: request.body.source,
      });
      return { ok: true as const, is_match: isMatch };
    },
  });

  app.route({
    ...endpoint('DELETE /api/like.php'),
    handler: async (request) => {
      await unlikeProfile(ctx, requireAuth(request), request.body.profile_id);
      return { ok: true as const };
    },
  });

  app.route({ ...endpoint('GET /api/likes.php'), handler: async (request) => listLikes(ctx, requireAuth(request)) });

  app.route({
    ...endpoint('POST /api/likes-seen.php'),
    handler: async (request) => {
      await markLikeSeen(ctx, requireAuth(request), request.body.profile_id);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('GET /api/auto-like.php'),
    handler: async (request) => ({ profile: await autoLike(ctx, requireAuth(request)) }),
  });
};
