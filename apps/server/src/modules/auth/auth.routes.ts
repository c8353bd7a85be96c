import {
  languageSchema,
  loginSchema,
  mailChangeRequestSchema,
  okResponseSchema,
  resetDoSchema,
  resetRequestSchema,
  SESSION_COOKIE,
  signupSchema,
  tokenSchema,
  userResponseSchema,
} from '@amora/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth';
import { clearSessionCookie, endSession, setSessionCookie } from '../sessions/sessions.service';
import { geoipCountry } from '../settings/settings.service';
import {
  activate,
  confirmMailChange,
  login,
  presentMember,
  presentMemberById,
  requestInfo,
  requestMailChange,
  requestPasswordReset,
  resendActivation,
  resetPassword,
  setMemberLanguage,
  signup,
} from './auth.service';
import { setDeviceCookie } from './device-cookie';

/** Signup, activation, login and logout, password reset, email change, the language: the routes of spec §3 that prove who a member is. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const setSession = (reply: FastifyReply, token: string) => setSessionCookie(reply, token, ctx.config.isProduction);
  const tag = (summary: string) => ({ tags: ['accounts'], summary });

  app.get(
    '/api/user.php',
    { schema: { ...tag('The logged-in member (spec §3 user), or null'), response: { 200: userResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const auth = request.auth;
      return { user: auth ? await presentMember(ctx, request.site, auth.user, auth.profile) : null };
    },
  );

  app.post(
    '/api/user.php',
    { schema: { ...tag('Log in'), body: loginSchema, response: { 200: userResponseSchema } } },
    async (request, reply) => {
      const { user, session, deviceAccount } = await login(ctx, requestInfo(request), request.body);
      setSession(reply, session.token);
      setDeviceCookie(reply, ctx.config.cookieSecret, deviceAccount, ctx.config.isProduction);
      return { user: await presentMemberById(ctx, request.site, user.id) };
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
      await setMemberLanguage(ctx, auth.user.id, request.body.language);
      return { ok: true as const };
    },
  );

  app.get('/api/logout.php', { schema: { ...tag('Log out'), response: { 200: okResponseSchema } } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await endSession(ctx, token);
    clearSessionCookie(reply);
    return { ok: true as const };
  });

  app.post(
    '/api/signup.php',
    { schema: { ...tag('Sign up'), body: signupSchema, response: { 200: userResponseSchema } } },
    async (request, reply) => {
      const info = { ...requestInfo(request, request.body.language), geoipCountry: geoipCountry(request, ctx.config) };
      const { user, session } = await signup(ctx, info, request.body);
      setSession(reply, session.token);
      return { user: await presentMemberById(ctx, request.site, user.id) };
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
      return { user: await presentMemberById(ctx, request.site, user.id) };
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
};
