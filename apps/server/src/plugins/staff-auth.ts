import { CONSOLE_ERRORS, STAFF_SESSION_COOKIE, type StaffRole } from '@amora/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/errors';
import { findStaffAuth, hasRole, type StaffAuth } from '../modules/staff/staff.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call a console route (every /api/console/ route must say): the roles (admin may always), or
     * 'anyone' for the sign-in's own calls, which find the staff member themselves.
     */
    staff?: readonly StaffRole[] | 'anyone';
  }
  interface FastifyRequest {
    /** The staff member of a console call (its own cookie), or null. Never set on a member's call. */
    staffAuth: StaffAuth | null;
  }
  interface FastifyInstance {
    /** Every console route and who may call it, as registered (the guard's test calls each as everyone). */
    consoleRoutes: { method: string; url: string; staff: readonly StaffRole[] | 'anyone' }[];
  }
}

/** The console's API: its own cookie and session, never a member's (the request gate does not read the member cookie there). */
const CONSOLE_API = '/api/console/';

export function isConsoleApi(path: string): boolean {
  return path.startsWith(CONSOLE_API);
}

/** The console cookie: sent only to the console's API, never readable by scripts, never sent from another site. */
export function setStaffCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(STAFF_SESSION_COOKIE, token, { path: '/api/console', httpOnly: true, sameSite: 'strict', secure });
}

export function clearStaffCookie(reply: FastifyReply): void {
  reply.clearCookie(STAFF_SESSION_COOKIE, { path: '/api/console', httpOnly: true, sameSite: 'strict' });
}

export function staffToken(request: FastifyRequest): string | undefined {
  return request.cookies[STAFF_SESSION_COOKIE];
}

/** The signed-in staff member of a console call (the guard let it through, so there is one). */
export function requireStaff(request: FastifyRequest): StaffAuth {
  if (!request.staffAuth?.signedIn) throw signInRequired();
  return request.staffAuth;
}

const signInRequired = () =>
  new HttpError(401, 'sign_in_required', 'Please sign in to the console', { message_key: CONSOLE_ERRORS.signInRequired });
const forbidden = () => new HttpError(403, 'forbidden', 'Your role may not do this', { message_key: CONSOLE_ERRORS.forbidden });

/**
 * The one guard of the console (DESIGN "Console"): every /api/console/ route declares who may call it
 * (`config.staff`; a route without it stops the app from starting), and before its input is read the guard finds the
 * staff member behind the console cookie and refuses a call without a signed-in session (401) or of a role the
 * route does not list (403). Answers never go to a shared cache.
 */
export function registerStaffGuard(app: FastifyInstance): void {
  app.decorateRequest('staffAuth', null);
  app.decorate('consoleRoutes', []);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(CONSOLE_API) && route.url !== CONSOLE_API.slice(0, -1)) return;
    const staff = route.config?.staff;
    if (staff === undefined) throw new Error(`The console route ${route.url} does not say who may call it (config.staff)`);
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method !== 'HEAD') app.consoleRoutes.push({ method, url: route.url, staff });
    }
  });
  // Before the body is validated: a caller who may not call the route learns nothing of what it takes.
  app.addHook('preValidation', async (request, reply) => {
    const allowed = request.routeOptions.config?.staff;
    if (allowed === undefined) return;
    reply.header('cache-control', 'no-store');
    reply.header('x-frame-options', 'DENY');
    const token = staffToken(request);
    request.staffAuth = token ? await findStaffAuth(app.ctx, token) : null;
    if (allowed === 'anyone') return;
    const auth = request.staffAuth;
    if (!auth?.signedIn) throw signInRequired();
    if (!hasRole(auth.staff, allowed)) throw forbidden();
  });
}
