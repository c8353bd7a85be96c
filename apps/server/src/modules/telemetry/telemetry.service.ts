import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { landerOfPath } from '../../lib/tracking';
import { dbOf } from '../../lib/transaction';
import { addVisit, type VisitPeriod, visitsPerDay, visitsPerSource } from './visits.repository';

/**
 * Visits (docs/decisions.md, "Business reports"): a visitor without a member session whose browser loads a page of
 * a site, counted once per browser and UTC day by the `amora_visit` cookie, per site, day, lander, slug and
 * traffic network. Nothing that identifies the visitor is stored.
 */

/** The cookie that says this browser's visit of today is counted: its value is the day, it ends with the UTC day. */
const VISIT_COOKIE = 'amora_visit';

const DAY_MS = 86_400_000;
const MAX_TEXT = 64;

/** Programs that are not a person's browser (crawlers, link previews, headless and test browsers, scripts). */
const NOT_A_VISITOR =
  /bot\b|bot\/|crawl|spider|slurp|headless|lighthouse|pagespeed|preview|facebookexternalhit|embedly|python|curl|wget|go-http|java\/|okhttp|axios|node-fetch|undici|phantomjs|selenium|playwright|puppeteer/i;

/** Text as it is stored: no control characters, trimmed, at most 64 characters. */
function clean(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, MAX_TEXT);
}

/** The lander and slug of a page's path as lib/tracking.ts names them (the signup stores the same), '' for others. */
function landerOf(path: string): { lander: string; slug: string } {
  const found = landerOfPath(path);
  return { lander: clean(found?.lander), slug: clean(found?.slug) };
}

/** Whether the request is a person's browser loading the page: not a bot or a script by its user agent, no prefetch. */
function isPersonLoading(request: FastifyRequest): boolean {
  const agent = request.headers['user-agent'];
  if (!agent || NOT_A_VISITOR.test(agent)) return false;
  const purpose = `${request.headers['sec-purpose'] ?? ''} ${request.headers.purpose ?? ''}`;
  return !/prefetch|prerender/i.test(purpose);
}

/**
 * Counts the visit of a page document served to a visitor (plugins/web.ts calls it, as app.ts hands it over, for
 * every page of a site that it serves without a member session, whether the page is rendered, kept or bare): the first of this browser
 * today counts, one atomic increment, and sets the cookie until the end of the UTC day. A failure to count is
 * logged and the page served all the same.
 */
export async function countVisit(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, path: string): Promise<void> {
  const now = ctx.now();
  const day = now.toISOString().slice(0, 10);
  if (request.cookies[VISIT_COOKIE] === day || !isPersonLoading(request)) return;
  const query = request.query as Record<string, unknown> | undefined;
  const network = Array.isArray(query?.network) ? query.network[0] : query?.network;
  try {
    await addVisit(dbOf(ctx), { siteId: request.site.id, day, ...landerOf(path), network: clean(network) });
  } catch (error) {
    request.log.warn({ err: error }, 'a visit could not be counted');
    return;
  }
  reply.setCookie(VISIT_COOKIE, day, {
    path: '/',
    expires: new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS),
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.isProduction,
  });
}

/** Visits per day of a period, and per lander, slug and network (for the business reports). */
export async function visitsOf(ctx: AppContext, period: VisitPeriod) {
  const db = dbOf(ctx);
  return { days: await visitsPerDay(db, period), sources: await visitsPerSource(db, period) };
}
