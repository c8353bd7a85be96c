import type { Locale } from '@amora/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

// What plugins/web.ts asks of a served page's data, which modules/page-data makes, and of the visit counter
// (modules/telemetry): the types both sides share, here so that those modules do not import a plugin.

/**
 * What the page carries for the app's first paint, made per request (modules/page-data): the language the
 * app will show and the data block with the settings, the member and the catalogue in it ('' for none); `member`
 * when the data block has a logged-in member (the page then preloads the member parts of the shell).
 */
export type PageData = (
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
) => Promise<{ locale: Locale; script: string; prerender?: PrerenderRequest; member?: boolean }>;

/**
 * Counts the visit of a page served to a visitor without a member session (modules/telemetry `countVisit`): given
 * by app.ts, so that plugins/web.ts imports no module.
 */
export type PageVisit = (request: FastifyRequest, reply: FastifyReply, path: string) => Promise<void>;

/**
 * Whether the profile of a member landing (/members/{id}/landing, landing2, landing3) may be shown on the request's
 * site (modules/profiles `isMemberLandingShown`): its page is a 404 otherwise. Given by app.ts, as PageVisit.
 */
export type LandingShown = (request: FastifyRequest, profileId: number) => Promise<boolean>;

/**
 * A visitor's page the server may render (apps/web/src/entry-server.tsx): its address in the language the app
 * shows, the settings as the data block carries them (JSON) and the common catalogue.
 */
export interface PrerenderRequest {
  url: string;
  locale: Locale;
  settingsJson: string;
  messages: Record<string, unknown>;
  /** The cookies the first screen depends on (the entry warning's dismissal), as a Cookie header. */
  cookies: string;
  /** On a member's page whose route declares its data: whose page it is and how the render reaches the API. */
  member?: MemberPrerenderRequest;
  /** The API as it answers this request (reads only), for a page rendered with its data for anyone (a lander). */
  api?: MemberPrerenderRequest['api'];
}

/** What a member's page is rendered from beyond a visitor's (apps/web/src/entry-server.tsx, prerenderMember). */
export interface MemberPrerenderRequest {
  /** The member as GET user.php answers. */
  user: unknown;
  /** The API answering the render's calls as it answers this member. */
  api: (path: string, init: RequestInit) => Promise<Response>;
  /** Whether the browser is a phone (its client hints or user agent): the phone layout first. */
  phone: boolean;
}
