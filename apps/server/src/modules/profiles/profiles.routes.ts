import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { memberLandingProfile } from './member-landing.service';
import { block, completeSignup, getOwnProfile, listBlocked, updateOwnProfile, viewMember } from './profiles.service';

export const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('GET /api/profile.php'),
    handler: async (request) => {
      return { profile: await getOwnProfile(ctx, requireAuth(request)) };
    },
  });

  app.route({
    ...endpoint('PUT /api/profile.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await updateOwnProfile(ctx, auth, request.site, request.body);
      return { profile: await getOwnProfile(ctx, auth) };
    },
  });

  app.route({
    ...endpoint('PUT /api/complete-signup.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await completeSignup(ctx, auth, request.site, request.body);
      return { profile: await getOwnProfile(ctx, auth) };
    },
  });

  app.route({
    ...endpoint('GET /api/member.php'),
    handler: async (request) => viewMember(ctx, request.site, request.auth, request.query.id),
  });

  app.route({
    ...endpoint('GET /api/member-landing.php'),
    handler: async (request) => ({ profile: await memberLandingProfile(ctx, request.site, request.query.id) }),
  });

  app.route({ ...endpoint('GET /api/blocks.php'), handler: async (request) => listBlocked(ctx, requireAuth(request)) });

  app.route({
    ...endpoint('POST /api/block.php'),
    handler: async (request) => {
      await block(ctx, request.site, requireAuth(request), request.body.profile_id, true);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('DELETE /api/block.php'),
    handler: async (request) => {
      await block(ctx, request.site, requireAuth(request), request.body.profile_id, false);
      return { ok: true as const };
    },
  });
};
