import { ageOn, membersQuerySchema, membersResponseSchema, TRACKING_COOKIE } from '@amora/contracts';
import { blocks, profiles, users } from '@amora/db';
import { and, desc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticationRequired } from '../../lib/errors';
import { parseTracking } from '../accounts/accounts.service';
import { photoUrl } from '../photos/photos.routes';

const PAGE_SIZE = 24;

/**
 * The member list of the site, newest first: active, visible profiles of accounts that are not deleted, never
 * the viewer and never anyone in a block with the viewer. Visitors see it only as the site's logged_out_search settings allow.
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
        const hasTrafficsource = Object.keys(parseTracking(request.cookies[TRACKING_COOKIE])).length > 0;
        if (!(site.loggedOutSearch || (hasTrafficsource && site.loggedOutSearchTrafficsource))) throw authenticationRequired();
      }
      const { page } = request.query;
      const rows = await app.ctx.db
        .select({
          id: profiles.id,
          name: profiles.name,
          country: profiles.country,
          city: profiles.city,
          isFictional: profiles.isFictional,
          birthDate: profiles.birthDate,
          mainPhotoId: profiles.mainPhotoId,
          paidUser: users.paidUser,
        })
        .from(profiles)
        .leftJoin(users, eq(users.id, profiles.userId))
        .where(
          and(
            eq(profiles.siteId, site.id),
            eq(profiles.status, 'active'),
            eq(profiles.isInvisible, false),
            or(isNull(profiles.userId), ne(users.status, 'deleted')),
            auth ? ne(profiles.id, auth.profile.id) : undefined,
            auth
              ? sql`not exists (select 1 from ${blocks} b where (b.blocker_profile_id = ${profiles.id} and b.blocked_profile_id = ${auth.profile.id}) or (b.blocker_profile_id = ${auth.profile.id} and b.blocked_profile_id = ${profiles.id}))`
              : undefined,
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
          age: ageOn(r.birthDate, now),
          country: r.country,
          city: r.city,
          is_fictional: r.isFictional,
          is_premium: r.paidUser === true,
          thumb_url: r.mainPhotoId ? photoUrl(r.mainPhotoId, 'thumb') : null,
        })),
      };
    },
  );
};
