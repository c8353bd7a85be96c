import { ageOn, membersQuerySchema, membersResponseSchema, TRACKING_COOKIE } from '@amora/contracts';
import { profiles, users } from '@amora/db';
import { and, desc, eq, isNull, ne, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticationRequired } from '../../lib/errors';

const PAGE_SIZE = 24;

/**
 * The member list of the site, newest first: active profiles of accounts that are not deleted, never the
 * viewer. Visitors see it only as the site's logged_out_search settings allow.
 */
export const membersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/members.php',
    {
      schema: {
        tags: ['discovery'],
        summary: 'Members of this site, newest first',
        querystring: membersQuerySchema,
        response: { 200: membersResponseSchema },
      },
    },
    async (request) => {
      const { site, auth } = request;
      if (!auth) {
        const hasTrafficsource = Boolean(request.cookies[TRACKING_COOKIE]);
        if (!(site.loggedOutSearch || (hasTrafficsource && site.loggedOutSearchTrafficsource))) throw authenticationRequired();
      }
      const { page } = request.query;
      const rows = await app.ctx.db
        .select({
          id: profiles.id,
          name: profiles.name,
          country: profiles.country,
          isFictional: profiles.isFictional,
          dateOfBirth: users.dateOfBirth,
        })
        .from(profiles)
        .leftJoin(users, eq(users.id, profiles.userId))
        .where(
          and(
            eq(profiles.siteId, site.id),
            eq(profiles.status, 'active'),
            or(isNull(profiles.userId), ne(users.status, 'deleted')),
            auth ? ne(profiles.id, auth.profile.id) : undefined,
          ),
        )
        .orderBy(desc(profiles.id))
        .limit(PAGE_SIZE + 1)
        .offset((page - 1) * PAGE_SIZE);
      const now = app.ctx.now();
      return {
        page,
        has_more: rows.length > PAGE_SIZE,
        results: rows.slice(0, PAGE_SIZE).map((r) => ({
          id: r.id,
          name: r.name,
          age: r.dateOfBirth ? ageOn(r.dateOfBirth, now) : 0,
          country: r.country,
          is_fictional: r.isFictional,
        })),
      };
    },
  );
};
