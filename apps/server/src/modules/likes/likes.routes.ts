import {
  autoLikeResponseSchema,
  likeInputSchema,
  likeResponseSchema,
  likesResponseSchema,
  likeTargetSchema,
  okResponseSchema,
} from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { autoLike, likeProfile, listLikes, markLikeSeen, unlikeProfile } from './likes.service';

/** Likes and matches (spec §2 likes pages and match modal, §4, §7 likes.php and auto-like.php). */
export const likesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tag = (summary: string) => ({ tags: ['likes'], summary });

  app.post(
    '/api/like.php',
    {
      schema: { ...tag('Like a profile; is_match when the like is mutual'), body: likeInputSchema, response: { 200: likeResponseSchema } },
    },
    async (request) => {
      const { isMatch } = await likeProfile(ctx, {
        liker: requireAuth(request),
        likedProfileId: request.body.profile_id,
        source: request.body.source,
      });
      return { ok: true as const, is_match: isMatch };
    },
  );

  app.delete(
    '/api/like.php',
    { schema: { ...tag('Take my like back'), body: likeTargetSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await unlikeProfile(ctx, requireAuth(request), request.body.profile_id);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/likes.php',
    { schema: { ...tag('Profiles I liked and profiles that liked me'), response: { 200: likesResponseSchema } } },
    async (request) => listLikes(ctx, requireAuth(request)),
  );

  app.post(
    '/api/likes-seen.php',
    {
      schema: {
        ...tag('I opened the profile of someone who liked me: clears the new-like flag of their like'),
        body: likeTargetSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await markLikeSeen(ctx, requireAuth(request), request.body.profile_id);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/auto-like.php',
    {
      schema: {
        ...tag('At most once a day, a fictional profile likes me; the profile for the match modal, or null'),
        response: { 200: autoLikeResponseSchema },
      },
    },
    async (request) => ({ profile: await autoLike(ctx, requireAuth(request)) }),
  );
};
