import {
  deleteAccountResponseSchema,
  deleteAccountSchema,
  discountOfferResponseSchema,
  languageSchema,
  loginSchema,
  mailChangeRequestSchema,
  okResponseSchema,
  REACTIVATION_DAYS,
  resetDoSchema,
  resetRequestSchema,
  SESSION_COOKIE,
  signupSchema,
  tokenSchema,
  userResponseSchema,
} from '@amora/contracts';
import { users } from '@amora/db';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashToken } from '../../lib/tokens';
import { requireAuth } from '../../plugins/auth';
import { presentUser } from './accounts.presenter';
import { countNewLikes, deleteSessionByHash, findAccount } from './accounts.repository';
import {
  activate,
  confirmMailChange,
  deleteAccount,
  login,
  offerDeleteDiscount,
  reactivate,
  requestInfo,
  requestMailChange,
  requestPasswordReset,
  resendActivation,
  resetPassword,
  signup,
} from './accounts.service';

const SESSION_MAX_AGE = 30 * 86_400;

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const setSession = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.isProduction,
      maxAge: SESSION_MAX_AGE,
    });
  const clearSession = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, { path: '/' });
  const tag = (summary: string) => ({ tags: ['accounts'], summary });

  app.get(
    '/api/user.php',
    { schema: { ...tag('The logged-in member (spec §3 user), or null'), response: { 200: userResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const auth = request.auth;
      return { user: auth ? presentUser(auth.user, auth.profile, request.site, await countNewLikes(ctx.db, auth.profile.id)) : null };
    },
  );

  app.post(
    '/api/user.php',
    { schema: { ...tag('Log in'), body: loginSchema, response: { 200: userResponseSchema } } },
    async (request, reply) => {
      const { user, session } = await login(ctx, requestInfo(request), request.body);
      setSession(reply, session.token);
      const account = await findAccount(ctx.db, user.id);
      return { user: account ? presentUser(account.user, account.profile, request.site) : null };
    },
  );

  app.put(
    '/api/user.php',
    {
      schema: {
        ...tag('Save the language (on a locale change while logged in)'),
        body: languageSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      await ctx.db.update(users).set({ language: request.body.language }).where(eq(users.id, auth.user.id));
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/user.php',
    {
      schema: {
        ...tag('Delete the account (reactivation possible for 14 days)'),
        body: deleteAccountSchema,
        response: { 200: deleteAccountResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      await deleteAccount(ctx, requestInfo(request, auth.user.language), auth.user, auth.profile.name, request.body);
      clearSession(reply);
      return { ok: true as const, reactivation_days: REACTIVATION_DAYS };
    },
  );

  app.get('/api/logout.php', { schema: { ...tag('Log out'), response: { 200: okResponseSchema } } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSessionByHash(ctx.db, hashToken(token));
    clearSession(reply);
    return { ok: true as const };
  });

  app.post(
    '/api/signup.php',
    { schema: { ...tag('Sign up'), body: signupSchema, response: { 200: userResponseSchema } } },
    async (request, reply) => {
      const { user, session } = await signup(ctx, requestInfo(request, request.body.language), request.body);
      setSession(reply, session.token);
      const account = await findAccount(ctx.db, user.id);
      return { user: account ? presentUser(account.user, account.profile, request.site) : null };
    },
  );

  app.get(
    '/api/activate.php',
    {
      schema: {
        ...tag('Activation link from the email; redirects to /activate/done or /activate/error'),
        querystring: z.object({ token: z.string().optional() }),
      },
    },
    async (request, reply) => {
      const token = request.query.token;
      const result = token && token.length >= 20 && token.length <= 200 ? await activate(ctx, token) : { ok: false, language: 'en' };
      const prefix = result.language === 'en' ? '' : `/${result.language}`;
      return reply.redirect(`${prefix}/activate/${result.ok ? 'done' : 'error'}`, 302);
    },
  );

  app.post(
    '/api/activation.php',
    { schema: { ...tag('Send the activation email again'), response: { 200: okResponseSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      await resendActivation(ctx, requestInfo(request, auth.user.language), auth.user, auth.profile.name);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/password-reset.php',
    {
      schema: {
        ...tag('Ask for a password reset link (same answer for any address)'),
        body: resetRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await requestPasswordReset(ctx, requestInfo(request), request.body.email);
      return { ok: true as const };
    },
  );

  app.put(
    '/api/password-reset.php',
    { schema: { ...tag('Set a new password with the emailed link'), body: resetDoSchema, response: { 200: userResponseSchema } } },
    async (request, reply) => {
      const { user, session } = await resetPassword(ctx, requestInfo(request), request.body.token, request.body.password);
      setSession(reply, session.token);
      const account = await findAccount(ctx.db, user.id);
      return { user: account ? presentUser(account.user, account.profile, request.site) : null };
    },
  );

  app.post(
    '/api/mail-change.php',
    {
      schema: {
        ...tag('Ask to change the email address (confirmation link to the new one)'),
        body: mailChangeRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      await requestMailChange(ctx, requestInfo(request, auth.user.language), auth.user, auth.profile.name, request.body);
      return { ok: true as const };
    },
  );

  app.put(
    '/api/mail-change.php',
    {
      schema: {
        ...tag('Confirm the new email address with the emailed link'),
        body: tokenSchema,
        response: { 200: z.object({ ok: z.literal(true), email: z.string() }) },
      },
    },
    async (request) => {
      const email = await confirmMailChange(ctx, requestInfo(request), request.body.token);
      return { ok: true as const, email };
    },
  );

  app.post(
    '/api/delete-discount.php',
    { schema: { ...tag("The site's discount offered before deleting"), response: { 200: discountOfferResponseSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      return offerDeleteDiscount(ctx, auth.user, request.site);
    },
  );

  app.post(
    '/api/reactivate.php',
    { schema: { ...tag('Reactivate a deleted account with the emailed link'), body: tokenSchema, response: { 200: userResponseSchema } } },
    async (request, reply) => {
      const { user, session } = await reactivate(ctx, requestInfo(request), request.body.token);
      setSession(reply, session.token);
      const account = await findAccount(ctx.db, user.id);
      return { user: account ? presentUser(account.user, account.profile, request.site) : null };
    },
  );
};
