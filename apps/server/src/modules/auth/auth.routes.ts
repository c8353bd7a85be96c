import { SESSION_COOKIE } from '@amora/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { clearSessionCookie, endSession, setSessionCookie } from '../sessions/sessions.service';
import { geoipCountry } from '../settings/settings.service';
import { presentMember, presentMemberById, requestInfo, setMemberLanguage } from './auth.service';
import { setDeviceCookie } from './device-cookie';
import { login } from './login.service';
import { confirmMailChange, requestMailChange } from './mail-change.service';
import { requestPasswordReset, resetPassword } from './password-reset.service';
import { activate, resendActivation, signup } from './signup.service';

/** Signup, activation, login and logout, password reset, email change, the language: the routes of spec §3 that prove who a member is. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const setSession = (reply: FastifyReply, token: string) => setSessionCookie(reply, token, ctx.config.isProduction);

  app.route({
    ...endpoint('GET /api/user.php'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const auth = request.auth;
      return { user: auth ? await presentMember(ctx, request.site, auth.user, auth.profile) : null };
    },
  });

  app.route({
    ...endpoint('POST /api/user.php'),
    handler: async (request, reply) => {
      const { user, session, deviceAccount } = await login(ctx, requestInfo(request), request.body);
      setSession(reply, session.token);
      setDeviceCookie(reply, ctx.config.cookieSecret, deviceAccount, ctx.config.isProduction);
      return { user: await presentMemberById(ctx, request.site, user.id) };
    },
  });

  app.route({
    ...endpoint('PUT /api/user.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await setMemberLanguage(ctx, { siteId: auth.user.siteId, userId: auth.user.id }, request.body.language);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('GET /api/logout.php'),
    handler: async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await endSession(ctx, token);
      clearSessionCookie(reply);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('POST /api/signup.php'),
    handler: async (request, reply) => {
      const info = { ...requestInfo(request, request.body.language), geoipCountry: geoipCountry(request, ctx.config) };
      const { user, session } = await signup(ctx, info, request.body);
      setSession(reply, session.token);
      return { user: await presentMemberById(ctx, request.site, user.id) };
    },
  });

  app.route({
    ...endpoint('GET /api/activate.php'),
    handler: async (request, reply) => {
      const token = request.query.token;
      const result = token && token.length >= 20 && token.length <= 200 ? await activate(ctx, token) : { ok: false, language: 'en' };
      const prefix = result.language === 'en' ? '' : `/${result.language}`;
      return reply.redirect(`${prefix}/activate/${result.ok ? 'done' : 'error'}`, 302);
    },
  });

  app.route({
    ...endpoint('POST /api/activation.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await resendActivation(ctx, requestInfo(request, auth.user.language), auth.user, auth.profile.name);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('POST /api/password-reset.php'),
    handler: async (request) => {
      await requestPasswordReset(ctx, requestInfo(request), request.body.email);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('PUT /api/password-reset.php'),
    handler: async (request, reply) => {
      const { user, session } = await resetPassword(ctx, requestInfo(request), request.body.token, request.body.password);
      setSession(reply, session.token);
      return { user: await presentMemberById(ctx, request.site, user.id) };
    },
  });

  app.route({
    ...endpoint('POST /api/mail-change.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await requestMailChange(ctx, requestInfo(request, auth.user.language), auth.user, auth.profile.name, request.body);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('PUT /api/mail-change.php'),
    handler: async (request) => {
      const email = await confirmMailChange(ctx, requestInfo(request), request.body.token);
      return { ok: true as const, email };
    },
  });
};
