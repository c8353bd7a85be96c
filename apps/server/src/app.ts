import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import type { AppContext } from './context';
import { registerJobs } from './jobs';
import type { Lifecycle } from './lib/graceful-stop';
import { appLogger } from './lib/logger';
import { registerListeners } from './listeners';
import { appManifestRoutes } from './modules/app-manifest/app-manifest.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { chatRoutes } from './modules/chat/chat.routes';
import { chatSafetyRoutes } from './modules/chat/chat-safety.routes';
import { LiveHub } from './modules/chat/live.hub';
import { liveRoutes } from './modules/chat/live.routes';
import { complaintsRoutes } from './modules/complaints/complaints.routes';
import { contentRoutes } from './modules/content/content.routes';
import { dataExportRoutes } from './modules/data-export/data-export.routes';
import { deletionRoutes } from './modules/deletion/deletion.routes';
import { directDebitRoutes } from './modules/directdebit/directdebit.routes';
import { discountsRoutes } from './modules/discounts/discounts.routes';
import { discoveryRoutes } from './modules/discovery/discovery.routes';
import { geoRoutes } from './modules/geo/geo.routes';
import { healthRoutes } from './modules/health/health.routes';
import { databasePools } from './modules/health/health.service';
import { ConsoleLiveHub } from './modules/inbox/console-live.hub';
import { inboxRoutes } from './modules/inbox/inbox.routes';
import { landersRoutes } from './modules/landers/landers.routes';
import { likesRoutes } from './modules/likes/likes.routes';
import { devMailboxRoutes } from './modules/mail/dev-mailbox.routes';
import { mailReportsRoutes } from './modules/mail/mail-reports.routes';
import { moderationRoutes } from './modules/moderation/moderation.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { pageDataMaker } from './modules/page-data/page-data.service';
import { paymentsRoutes } from './modules/payments/payments.routes';
import type { SandboxJobs } from './modules/payments/sandbox/sandbox.service';
import { photosRoutes } from './modules/photos/photos.routes';
import { isMemberLandingShown } from './modules/profiles/member-landing.service';
import { profilesRoutes } from './modules/profiles/profiles.routes';
import { pushRoutes } from './modules/push/push.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { searchRoutes } from './modules/search/search.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { siteAdminRoutes } from './modules/site-admin/site-admin.routes';
import { devSmsRoutes } from './modules/sms/dev-sms.routes';
import { staffRoutes } from './modules/staff/staff.routes';
import { supportRoutes } from './modules/support/support.routes';
import { pageHiddenRoutes } from './modules/telemetry/page-hidden.routes';
import { countVisit } from './modules/telemetry/telemetry.service';
import { isChange } from './plugins/auth';
import { registerCookies } from './plugins/cookies';
import { holdRoutesToEndpoints } from './plugins/endpoints';
import { frameworkErrors, registerErrorHandling } from './plugins/errors';
import { registerMetrics } from './plugins/metrics';
import { registerRequestGate } from './plugins/request-gate';
import { requestLogging } from './plugins/request-log';
import { registerStaffGuard } from './plugins/staff-auth';
import { validatorWithEmptyShortcut } from './plugins/validation';
import { registerWeb } from './plugins/web';

export interface BuildOptions {
  logger?: boolean | object;
}

/** Builds the whole HTTP app on a prepared context; `main.ts` listens, tests use `app.inject`. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Fastify logs through our pino logger, with requests counted by plugins/request-log.ts; tests may run without.
  const logging =
    options.logger === false
      ? null
      : requestLogging(
          appLogger(
            pino(
              { level: ctx.config.logLevel, ...(typeof options.logger === 'object' ? options.logger : {}) },
              pino.destination({ sync: false, minLength: 4096 }),
            ),
          ),
        );
  const app = Fastify({
    ...(logging ? logging.options : { logger: false }),
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1_048_576,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors,
    // A request that reaches the process while it closes (on a kept-alive connection, or in process: the payment
    // sandbox's calls) is served, with `Connection: close`, not refused with 503: the graceful stop
    // (lib/graceful-stop.ts) drains the load balancer first, and a request let in is a request finished.
    return503OnClosing: false,
  }) as unknown as FastifyInstance;
  logging?.useLogger(app);
  app.setValidatorCompiler(validatorWithEmptyShortcut);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('ctx', ctx);
  // Set by the graceful stop (lib/graceful-stop.ts, main.ts): /health/ready then answers 503.
  app.decorate('lifecycle', { stopping: false } satisfies Lifecycle);

  // The request gate comes before every route, the API documentation's included.
  registerCookies(app);
  registerRequestGate(app, { floodGuard: { max: ctx.config.apiRateLimit } });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Amora API', version: '1.0.0', description: 'Dating and chat platform API (spec §7 calls keep their paths).' },
    },
    transform: jsonSchemaTransform,
  });
  // The document is built either way (tests read it); its viewer at /api/docs is off in production unless API_DOCS is set.
  if (ctx.config.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  registerErrorHandling(app);
  // The console's one guard: who may call each /api/console/ route (plugins/staff-auth.ts).
  registerStaffGuard(app);

  // Every /api route takes its method, path and schemas from the endpoints table (packages/contracts/src/endpoints).
  const checkEveryEndpointAnswered = holdRoutesToEndpoints(app, { production: ctx.config.isProduction });
  await app.register(healthRoutes);
  // This process's Prometheus metrics at /metrics, with METRICS_TOKEN only (plugins/metrics.ts); the database
  // pools' use through the health module.
  registerMetrics(app, { databasePools: () => databasePools(ctx) });
  await app.register(settingsRoutes);
  await app.register(contentRoutes);
  await app.register(appManifestRoutes);
  await app.register(complaintsRoutes);
  await app.register(pageHiddenRoutes);
  await app.register(mailReportsRoutes);
  if (!ctx.config.isProduction) await app.register(devMailboxRoutes);
  if (!ctx.config.isProduction) await app.register(devSmsRoutes);
  await app.register(authRoutes);
  await app.register(pushRoutes);
  await app.register(deletionRoutes);
  await app.register(photosRoutes);
  await app.register(geoRoutes);
  await app.register(profilesRoutes);
  await app.register(landersRoutes);
  await app.register(discoveryRoutes);
  await app.register(likesRoutes);
  await app.register(notificationsRoutes);
  await app.register(dataExportRoutes);
  await app.register(chatRoutes);
  await app.register(chatSafetyRoutes);
  await app.register(paymentsRoutes);
  await app.register(discountsRoutes);
  // The live channel (a WebSocket at /api/live): this process's sockets, pushed the bus's events.
  app.decorate('live', new LiveHub());
  await app.register(liveRoutes, {});
  await app.register(searchRoutes);
  await app.register(directDebitRoutes);
  await app.register(staffRoutes);
  await app.register(supportRoutes);
  await app.register(moderationRoutes);
  // The console's live channel (Server-Sent Events at /api/console/live): this process's streams.
  app.decorate('consoleLive', new ConsoleLiveHub());
  await app.register(inboxRoutes);
  await app.register(siteAdminRoutes);
  await app.register(reportsRoutes);
  await app.register(campaignsRoutes);

  // The payment sandbox (Mollie's API, the test checkout and its dashboard) when no Mollie key is set. Its code is
  // loaded here and only then: a server without the sandbox (production) never loads it.
  let sandboxJobs: SandboxJobs | null = null;
  if (ctx.config.payments.sandbox) {
    const [{ sandboxRoutes }, sandbox] = await Promise.all([
      import('./modules/payments/sandbox/sandbox.routes'),
      import('./modules/payments/sandbox/sandbox.service'),
    ]);
    await app.register(sandboxRoutes);
    sandboxJobs = sandbox.sandboxJobs(app);
  }

  checkEveryEndpointAnswered();

  // Every page carries the settings, the member and the catalogue its first paint needs (modules/page-data).
  // A member's page's data is read through the API; isChange keeps its calls to reads that change nothing.
  // A visitor's page is a visit, counted once per browser and day (modules/telemetry).
  await registerWeb(app, {
    pageData: pageDataMaker(app, { isChange }),
    countVisit: (request, reply, path) => countVisit(ctx, request, reply, path),
    // A member landing's page exists only for a profile a landing may show (modules/profiles).
    isLandingShown: (request, profileId) => isMemberLandingShown(ctx, request.site, profileId),
  });

  // Every job's handler (jobs.ts) and every event's listener (listeners.ts), once the routes, the live hub and the
  // sandbox are in place; the job worker starts after this (main.ts).
  registerJobs(ctx.jobs, { ctx, log: app.log, sandbox: sandboxJobs });
  const stopListening = registerListeners(app);
  app.addHook('onClose', async () => stopListening());
  return app;
}
