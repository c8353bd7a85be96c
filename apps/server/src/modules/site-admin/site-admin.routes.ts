import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_WARNING_STORAGE_KEY, type Locale, localizePath, type Settings } from '@amora/contracts';
import { loadCatalogue } from '@amora/i18n';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, HttpError } from '../../lib/errors';
import { endpoint } from '../../plugins/endpoints';
import { prerenderer, withPrerendered } from '../../plugins/prerender';
import { requireStaff } from '../../plugins/staff-auth';
import { localizedIndex } from '../../plugins/web';
import { visitorSettings } from '../settings/settings.service';
import {
  addDiscountCode,
  addSitePackage,
  changeCode,
  changeCompanyData,
  changePaymentMethods,
  changeSite,
  changeSitePackage,
  companyDetail,
  listDiscountCodes,
  listSites,
  packagesOf,
  paymentMethodsOf,
  siteDetail,
  siteWithDraft,
} from './site-admin.service';

/** What the page's document keeps out of a preview: its scripts, their preloads and the no-script notice. */
const RUNNABLE = /<script\b[^>]*>[\s\S]*?<\/script>|<link rel="modulepreload"[^>]*>|<noscript>[\s\S]*?<\/noscript>/g;

/**
 * The landing page as a visitor sees it first (the web build's server render, as plugins/prerender.ts makes it
 * for `/`), drawn from the settings given, in the built index.html without anything that runs: a document for the
 * console's sandboxed frame. Its links open nothing there (the frame may open no window). Null without the web
 * build, or when the render fails.
 */
function landingPagePreviewer(webDist: string, log: FastifyBaseLogger) {
  const indexPath = join(webDist, 'index.html');
  const render = existsSync(indexPath) ? prerenderer(webDist, log) : null;
  const template = render ? readFileSync(indexPath, 'utf8') : null;
  return async (settings: Settings, locale: Locale, firstVisit: boolean): Promise<string | null> => {
    if (!render || template === null) return null;
    const html = await render({
      url: localizePath('/', locale),
      locale,
      settingsJson: JSON.stringify(settings),
      messages: loadCatalogue(locale, 'common'),
      cookies: firstVisit ? '' : `${ENTRY_WARNING_STORAGE_KEY}=1`,
    });
    if (html === null) return null;
    return withPrerendered(localizedIndex(template, locale), html)
      .replace(RUNNABLE, '')
      .replace('</head>', () => '<base target="_blank"></head>');
  };
}

/** Sites, companies and prices in the console. */
export const siteAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const actorOf = (request: FastifyRequest) => ({ staffId: requireStaff(request).staff.id, ip: request.ip });
  // Admins only: no other role is named (plugins/staff-auth.ts).
  const config = { staff: ['admin' as const] };

  app.route({ ...endpoint('GET /api/console/sites'), config, handler: async () => listSites(ctx) });
  app.route({ ...endpoint('GET /api/console/sites/:id'), config, handler: async (request) => siteDetail(ctx, request.params.id) });
  app.route({
    ...endpoint('PUT /api/console/sites/:id'),
    config,
    handler: async (request) => changeSite(ctx, actorOf(request), request.params.id, request.body),
  });

  const preview = landingPagePreviewer(ctx.config.webDist, app.log);
  app.route({
    ...endpoint('POST /api/console/sites/:id/preview'),
    config,
    handler: async (request) => {
      const { lang, first_visit: firstVisit } = request.query;
      const site = await siteWithDraft(ctx, request.params.id, request.body);
      if (!site.languages.includes(lang)) throw badRequest('lang', 'The site does not speak that language');
      const html = await preview(visitorSettings(ctx, site, lang), lang, firstVisit === '1');
      if (html === null) throw new HttpError(503, 'preview_unavailable', 'The web app is not built here, so there is no page to show');
      return { html };
    },
  });

  app.route({ ...endpoint('GET /api/console/companies/:id'), config, handler: async (request) => companyDetail(ctx, request.params.id) });
  app.route({
    ...endpoint('PUT /api/console/companies/:id'),
    config,
    handler: async (request) => changeCompanyData(ctx, actorOf(request), request.params.id, request.body),
  });

  app.route({
    ...endpoint('GET /api/console/sites/:id/packages'),
    config,
    handler: async (request) => packagesOf(ctx, request.params.id),
  });
  app.route({
    ...endpoint('POST /api/console/sites/:id/packages'),
    config,
    handler: async (request) => addSitePackage(ctx, actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...endpoint('PUT /api/console/sites/:id/packages/:packageId'),
    config,
    handler: async (request) => changeSitePackage(ctx, actorOf(request), request.params.id, request.params.packageId, request.body),
  });

  app.route({
    ...endpoint('GET /api/console/sites/:id/payment-methods'),
    config,
    handler: async (request) => paymentMethodsOf(ctx, request.params.id),
  });
  app.route({
    ...endpoint('PUT /api/console/sites/:id/payment-methods'),
    config,
    handler: async (request) => changePaymentMethods(ctx, actorOf(request), request.params.id, request.body),
  });

  app.route({ ...endpoint('GET /api/console/discount-codes'), config, handler: async (request) => listDiscountCodes(ctx, request.query) });
  app.route({
    ...endpoint('POST /api/console/discount-codes'),
    config,
    handler: async (request) => addDiscountCode(ctx, actorOf(request), request.body),
  });
  app.route({
    ...endpoint('PUT /api/console/discount-codes/:id'),
    config,
    handler: async (request) => changeCode(ctx, actorOf(request), request.params.id, request.body),
  });
};
