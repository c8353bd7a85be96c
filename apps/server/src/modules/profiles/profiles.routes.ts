import {
  blockedProfilesResponseSchema,
  blockSchema,
  completeSignupSchema,
  memberResponseSchema,
  okResponseSchema,
  ownProfileResponseSchema,
  profileUpdateSchema,
} from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { block, completeSignup, getOwnProfile, listBlocked, updateOwnProfile, viewMember } from './profiles.service';

export const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tag = (summary: string) => ({ tags: ['profiles'], summary });

  app.get(
    '/api/profile.php',
    { schema: { ...tag('My own profile with all my photos'), response: { 200: ownProfileResponseSchema } } },
    async (request) => {
      return { profile: await getOwnProfile(ctx, requireAuth(request)) };
    },
  );

  app.put(
    '/api/profile.php',
    { schema: { ...tag('Edit my profile'), body: profileUpdateSchema, response: { 200: ownProfileResponseSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      await updateOwnProfile(ctx, auth, request.site, request.body);
      return { profile: await getOwnProfile(ctx, auth) };
    },
  );

  app.put(
    '/api/complete-signup.php',
    {
      schema: {
        ...tag('After signup (spec §2 complete-signup): my gender, the genders I want to meet and where I live'),
        body: completeSignupSchema,
        response: { 200: ownProfileResponseSchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      await completeSignup(ctx, auth, request.site, request.body);
      return { profile: await getOwnProfile(ctx, auth) };
    },
  );

  app.get(
    '/api/member.php',
    {
      schema: {
        ...tag('A profile as the viewer may see it, with related profiles'),
        querystring: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: memberResponseSchema },
      },
    },
    async (request) => viewMember(ctx, request.site, request.auth, request.query.id),
  );

  app.get(
    '/api/blocks.php',
    { schema: { ...tag('The members I blocked, the latest first'), response: { 200: blockedProfilesResponseSchema } } },
    async (request) => listBlocked(ctx, requireAuth(request)),
  );

  app.post(
    '/api/block.php',
    { schema: { ...tag('Block a member'), body: blockSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await block(ctx, request.site, requireAuth(request), request.body.profile_id, true);
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/block.php',
    { schema: { ...tag('Unblock a member'), body: blockSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await block(ctx, request.site, requireAuth(request), request.body.profile_id, false);
      return { ok: true as const };
    },
  );
};
