import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { clearStaffCookie, requireStaff, setStaffCookie, staffToken } from '../../plugins/staff-auth';
import {
  auditLog,
  changeStaff,
  completeLogin,
  createStaff,
  demoStaffCode,
  endSession,
  listStaff,
  login,
  logout,
  presentStaff,
  sessionsOf,
} from './staff.service';

/** The console's sign-in, sessions, staff and audit log (plugins/staff-auth.ts guards each by `config.staff`). */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const secure = ctx.config.isProduction;
  const actorOf = (request: { ip: string; staffAuth: { staff: { id: number } } | null }) => ({
    staffId: request.staffAuth?.staff.id ?? null,
    ip: request.ip,
  });

  app.route({
    ...endpoint('POST /api/console/login'),
    config: { staff: 'anyone', floodGuard: { max: 30 } },
    handler: async (request, reply) => {
      const { token, step } = await login(ctx, { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') }, request.body);
      setStaffCookie(reply, token, secure);
      return step;
    },
  });

  app.route({
    ...endpoint('POST /api/console/login/second-factor'),
    config: { staff: 'anyone', floodGuard: { max: 30 } },
    handler: async (request) => completeLogin(ctx, staffToken(request), request.body, request.ip),
  });

  app.route({
    ...endpoint('POST /api/console/logout'),
    config: { staff: 'anyone' },
    handler: async (request, reply) => {
      if (request.staffAuth) await logout(ctx, request.staffAuth);
      clearStaffCookie(reply);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('GET /api/console/me'),
    config: { staff: 'anyone' },
    handler: async (request) => ({ staff: request.staffAuth?.signedIn ? presentStaff(request.staffAuth.staff) : null }),
  });

  app.route({
    ...endpoint('GET /api/console/sessions'),
    config: { staff: ['moderator', 'support', 'operator'] },
    handler: async (request) => ({ sessions: await sessionsOf(ctx, requireStaff(request)) }),
  });

  app.route({
    ...endpoint('DELETE /api/console/sessions/:id'),
    config: { staff: ['moderator', 'support', 'operator'] },
    handler: async (request) => {
      await endSession(ctx, requireStaff(request), request.params.id, request.ip);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpoint('GET /api/console/staff'),
    config: { staff: ['admin'] },
    handler: async () => ({ staff: await listStaff(ctx) }),
  });

  app.route({
    ...endpoint('POST /api/console/staff'),
    config: { staff: ['admin'] },
    handler: async (request, reply) => {
      const { staff, password } = await createStaff(ctx, actorOf(request), request.body);
      reply.code(201);
      return { staff: presentStaff(staff), password };
    },
  });

  app.route({
    ...endpoint('PUT /api/console/staff/:id'),
    config: { staff: ['admin'] },
    handler: async (request) => changeStaff(ctx, actorOf(request), request.params.id, request.body),
  });

  // Development only: the demo staff's authenticator code, so a newcomer can sign in without an authenticator app.
  if (!ctx.config.isProduction) {
    app.route({
      ...endpoint('GET /api/dev/console-code.php'),
      handler: async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return demoStaffCode(ctx);
      },
    });
  }

  app.route({
    ...endpoint('GET /api/console/audit'),
    config: { staff: ['admin'] },
    handler: async (request) => auditLog(ctx, request.query),
  });
};
