import {
  companyAdminSchema,
  companySettingsSchema,
  discountCodeAdminChangeSchema,
  discountCodeAdminInputSchema,
  discountCodeAdminSchema,
  discountCodeListQuerySchema,
  discountCodeListSchema,
  discountCodeParamsSchema,
  packageAdminSchema,
  packageInputSchema,
  packageListSchema,
  paymentMethodsAdminSchema,
  paymentMethodsInputSchema,
  siteAdminSchema,
  siteListSchema,
  sitePackageParamsSchema,
  siteParamsSchema,
  sitePreviewQuerySchema,
  sitePreviewSchema,
  siteSettingsChangeSchema,
} from '../site-admin';
import type { EndpointTable } from './endpoint';

/**
 * Sites, companies and prices in the console (admins only). Every change is audited and reaches every process at
 * once (docs/decisions.md, "Sites and prices from the console").
 */
export const siteAdminEndpoints = {
  'GET /api/console/sites': {
    tag: 'console',
    summary: 'Every site with its company, and the companies',
    response: siteListSchema,
  },
  'GET /api/console/sites/:id': {
    tag: 'console',
    summary: "A site's settings (spec §3) and its address",
    params: siteParamsSchema,
    response: siteAdminSchema,
  },
  'PUT /api/console/sites/:id': {
    tag: 'console',
    summary: "Change a site's settings (the ones given)",
    params: siteParamsSchema,
    body: siteSettingsChangeSchema,
    response: siteAdminSchema,
  },
  'POST /api/console/sites/:id/preview': {
    tag: 'console',
    summary: "The site's landing page with these settings over the stored ones, to look at before saving (stores nothing)",
    params: siteParamsSchema,
    query: sitePreviewQuerySchema,
    body: siteSettingsChangeSchema,
    response: sitePreviewSchema,
  },
  'GET /api/console/companies/:id': {
    tag: 'console',
    summary: "A company's legal and receipt data, and its sites",
    params: siteParamsSchema,
    response: companyAdminSchema,
  },
  'PUT /api/console/companies/:id': {
    tag: 'console',
    summary: "Change a company's legal and receipt data",
    params: siteParamsSchema,
    body: companySettingsSchema,
    response: companyAdminSchema,
  },
  'GET /api/console/sites/:id/packages': {
    tag: 'console',
    summary: "A site's credit packages in every country, active or not",
    params: siteParamsSchema,
    response: packageListSchema,
  },
  'POST /api/console/sites/:id/packages': {
    tag: 'console',
    summary: 'Add a credit package',
    params: siteParamsSchema,
    body: packageInputSchema,
    response: packageAdminSchema,
  },
  'PUT /api/console/sites/:id/packages/:packageId': {
    tag: 'console',
    summary: 'Change a credit package (its price, credits, order or whether it is sold)',
    params: sitePackageParamsSchema,
    body: packageInputSchema,
    response: packageAdminSchema,
  },
  'GET /api/console/sites/:id/payment-methods': {
    tag: 'console',
    summary: "A site's payment methods and their fees, per country",
    params: siteParamsSchema,
    response: paymentMethodsAdminSchema,
  },
  'PUT /api/console/sites/:id/payment-methods': {
    tag: 'console',
    summary: "Set a site's payment methods and fees in one country (no fee on a consumer card in the EEA or the UK)",
    params: siteParamsSchema,
    body: paymentMethodsInputSchema,
    response: paymentMethodsAdminSchema,
  },
  'GET /api/console/discount-codes': {
    tag: 'console',
    summary: 'Discount codes, newest first',
    query: discountCodeListQuerySchema,
    response: discountCodeListSchema,
  },
  'POST /api/console/discount-codes': {
    tag: 'console',
    summary: 'Add a discount code',
    body: discountCodeAdminInputSchema,
    response: discountCodeAdminSchema,
  },
  'PUT /api/console/discount-codes/:id': {
    tag: 'console',
    summary: 'Change a discount code',
    params: discountCodeParamsSchema,
    body: discountCodeAdminChangeSchema,
    response: discountCodeAdminSchema,
  },
} satisfies EndpointTable;
