import {
  type CompanyAdminView,
  type DiscountCodeAdminView,
  type discountCodeAdminChangeSchema,
  type discountCodeAdminInputSchema,
  SITE_ADMIN_ERRORS as E,
  type PackageAdminView,
  type PaymentMethodsAdminView,
  type SiteAdminView,
  type SiteListResponse,
  type SiteSettingsInput,
  siteSettingsSchema,
} from '@amora/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { withTransaction } from '../../lib/transaction';
import {
  addSiteCode,
  changeDiscountCode,
  type DiscountCodeRow,
  discountCodeOnSite,
  discountCodeRow,
  discountCodesPage,
} from '../discounts/discounts.service';
import {
  addPackage,
  changePackage,
  isCardMethod,
  type MethodRow,
  noCardFeesIn,
  type PackageRow,
  type PackageValues,
  setPaymentMethods,
  sitePackages,
  sitePaymentMethods,
} from '../payments/payments.service';
import {
  type Company,
  changeCompany,
  changeSiteSettings,
  type Site,
  type SiteSettings,
  siteAnsweringOn,
  siteUrl,
  storedCompany,
  storedSite,
  storedSitesAndCompanies,
} from '../sites/sites.service';
import { type Actor, audit } from '../staff/staff.service';

/**
 * Sites, companies and prices in the console (admins only). The writes are the owning modules' (sites, payments,
 * discounts); this module checks what spans fields, audits each change with its before and after in the same unit
 * of work, and answers in spec §3's names. A site or company change is announced to every process by the sites
 * module (site.settings-changed); prices and codes are read from the database at each order.
 */

const invalid = (field: string, key: string, message: string) =>
  new HttpError(400, 'validation_failed', message, { field, message_key: key });

const SETTING_KEYS = Object.keys(siteSettingsSchema.shape) as (keyof SiteSettingsInput)[];
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function settingsOf(site: Site): SiteSettingsInput {
  // As stored: the view's schema is looser than the input's, for rows older than a rule.
  const row = site as unknown as Record<string, unknown>;
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, row[camel(key)]])) as SiteSettingsInput;
}

function siteView(ctx: AppContext, site: Site): SiteAdminView {
  return {
    ...settingsOf(site),
    id: site.id,
    is_default: site.isDefault,
    company_name: site.company.name,
    preview_url: siteUrl(ctx.config, site, '/'),
  };
}

async function siteOr404(ctx: AppContext, id: number): Promise<Site> {
  const site = await storedSite(ctx, id);
  if (!site) throw notFound('No such site');
  return site;
}

export async function listSites(ctx: AppContext): Promise<SiteListResponse> {
  const { sites, companies } = await storedSitesAndCompanies(ctx);
  return {
    sites: sites
      .sort((a, b) => a.id - b.id)
      .map((site) => ({
        id: site.id,
        name: site.name,
        domain: site.domain,
        niche: site.niche,
        company_id: site.companyId,
        company_name: site.company.name,
        countries: site.countries,
        preview_url: siteUrl(ctx.config, site, '/'),
      })),
    companies: companies.map((c) => ({ id: c.id, name: c.name })),
  };
}

export async function siteDetail(ctx: AppContext, id: number): Promise<SiteAdminView> {
  return siteView(ctx, await siteOr404(ctx, id));
}

/** Checks what spans fields or rows: the default country among the countries, an address of one site only, the company. */
async function checkSettings(ctx: AppContext, siteId: number, next: SiteSettingsInput): Promise<void> {
  if (!next.countries.includes(next.default_country)) {
    throw invalid('default_country', E.defaultCountry, 'The default country must be one of the countries');
  }
  for (const [field, host] of [['domain', next.domain] as const, ...next.hosts.map((h, i) => [`hosts.${i}`, h] as const)]) {
    if ((await siteAnsweringOn(ctx, host, siteId)) !== null) throw invalid(field, E.domainTaken, 'Another site answers on that address');
  }
  if (!(await storedCompany(ctx, next.company_id))) throw invalid('company_id', E.noCompany, 'No such company');
}

export async function changeSite(ctx: AppContext, actor: Actor, id: number, change: Partial<SiteSettingsInput>): Promise<SiteAdminView> {
  const site = await siteOr404(ctx, id);
  const before = settingsOf(site);
  const next = { ...before, ...change };
  await checkSettings(ctx, id, next);
  const changed = SETTING_KEYS.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(next[key]));
  if (!changed.length) return siteView(ctx, site);
  const values = Object.fromEntries(changed.map((key) => [camel(key), next[key]])) as SiteSettings;
  await withTransaction(ctx, async () => {
    await changeSiteSettings(ctx, id, values);
    await audit(ctx, actor, {
      action: 'site.settings',
      objectType: 'site',
      objectId: id,
      before: Object.fromEntries(changed.map((key) => [key, before[key]])),
      after: Object.fromEntries(changed.map((key) => [key, next[key]])),
    });
  });
  return siteView(ctx, await siteOr404(ctx, id));
}

/**
 * The site as it would be with `change` saved, stored nowhere: the console's preview draws the landing page from
 * it. The change passed its fields' own checks; what spans rows (an address another site has) is the save's to
 * refuse, a company that does not exist is refused here too, since the page shows it.
 */
export async function siteWithDraft(ctx: AppContext, id: number, change: Partial<SiteSettingsInput>): Promise<Site> {
  const site = await siteOr404(ctx, id);
  const company =
    change.company_id === undefined || change.company_id === site.companyId ? site.company : await storedCompany(ctx, change.company_id);
  if (!company) throw invalid('company_id', E.noCompany, 'No such company');
  const values = Object.fromEntries(Object.entries(change).map(([key, value]) => [camel(key), value]));
  return { ...site, ...values, company };
}

async function companyView(ctx: AppContext, company: Company): Promise<CompanyAdminView> {
  const { sites } = await storedSitesAndCompanies(ctx);
  return {
    id: company.id,
    name: company.name,
    address: company.address,
    city: company.city,
    country: company.country,
    kvk: company.kvk,
    vat_numbers: company.vatNumbers,
    tradenames: company.tradenames,
    added: company.added,
    sites: sites.filter((s) => s.companyId === company.id).map((s) => s.domain),
  };
}

export async function companyDetail(ctx: AppContext, id: number): Promise<CompanyAdminView> {
  const company = await storedCompany(ctx, id);
  if (!company) throw notFound('No such company');
  return companyView(ctx, company);
}

export async function changeCompanyData(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: Omit<CompanyAdminView, 'id' | 'sites'>,
): Promise<CompanyAdminView> {
  const before = await companyDetail(ctx, id);
  const company = await withTransaction(ctx, async () => {
    const changed = await changeCompany(ctx, id, {
      name: input.name,
      address: input.address,
      city: input.city,
      country: input.country,
      kvk: input.kvk,
      vatNumbers: input.vat_numbers,
      tradenames: input.tradenames,
      added: input.added,
    });
    if (!changed) throw notFound('No such company');
    const { sites: _sites, ...was } = before;
    await audit(ctx, actor, { action: 'company.change', objectType: 'company', objectId: id, before: was, after: input });
    return changed;
  });
  return companyView(ctx, company);
}

const packageView = (row: PackageRow): PackageAdminView => ({
  id: row.id,
  country: row.country,
  currency: row.currency,
  credits: row.credits,
  price_minor: row.priceMinor,
  best_value: row.bestValue,
  position: row.position,
  active: row.active,
});

export async function packagesOf(ctx: AppContext, siteId: number): Promise<{ packages: PackageAdminView[] }> {
  await siteOr404(ctx, siteId);
  return { packages: (await sitePackages(ctx, siteId)).map(packageView) };
}

interface PackageInput {
  country: string;
  currency: string;
  credits: number;
  price_minor: number;
  best_value: boolean;
  position: number;
  active: boolean;
}

async function packageValues(ctx: AppContext, siteId: number, input: PackageInput): Promise<PackageValues> {
  const site = await siteOr404(ctx, siteId);
  if (!site.countries.includes(input.country)) throw invalid('country', E.countryNotSold, 'The site does not serve that country');
  return {
    country: input.country,
    currency: input.currency,
    credits: input.credits,
    priceMinor: input.price_minor,
    bestValue: input.best_value,
    position: input.position,
    active: input.active,
  };
}

export async function addSitePackage(ctx: AppContext, actor: Actor, siteId: number, input: PackageInput): Promise<PackageAdminView> {
  const values = await packageValues(ctx, siteId, input);
  return withTransaction(ctx, async () => {
    const row = await addPackage(ctx, siteId, values);
    const view = packageView(row);
    await audit(ctx, actor, { action: 'prices.package_add', objectType: 'credit_package', objectId: row.id, before: null, after: view });
    return view;
  });
}

export async function changeSitePackage(
  ctx: AppContext,
  actor: Actor,
  siteId: number,
  packageId: number,
  input: PackageInput,
): Promise<PackageAdminView> {
  const values = await packageValues(ctx, siteId, input);
  const before = (await sitePackages(ctx, siteId)).find((p) => p.id === packageId);
  if (!before) throw notFound('No such package');
  return withTransaction(ctx, async () => {
    const row = await changePackage(ctx, siteId, packageId, values);
    if (!row) throw notFound('No such package');
    const view = packageView(row);
    await audit(ctx, actor, {
      action: 'prices.package_change',
      objectType: 'credit_package',
      objectId: packageId,
      before: packageView(before),
      after: view,
    });
    return view;
  });
}

function methodsView(site: Site, rows: MethodRow[]): PaymentMethodsAdminView {
  const countries = [...new Set([...site.countries, ...rows.map((r) => r.country)])];
  return {
    countries: countries.map((country) => ({
      country,
      no_card_fees: noCardFeesIn(country),
      methods: rows
        .filter((r) => r.country === country)
        .map((r) => ({ method: r.method, fee_minor: r.feeMinor, card: isCardMethod(r.method) })),
    })),
  };
}

export async function paymentMethodsOf(ctx: AppContext, siteId: number): Promise<PaymentMethodsAdminView> {
  const site = await siteOr404(ctx, siteId);
  return methodsView(site, await sitePaymentMethods(ctx, siteId));
}

/** Sets a country's methods; a fee on a consumer card in the EEA or the UK is refused (400 on that method's fee). */
export async function changePaymentMethods(
  ctx: AppContext,
  actor: Actor,
  siteId: number,
  input: { country: string; methods: { method: string; fee_minor: number }[] },
): Promise<PaymentMethodsAdminView> {
  const site = await siteOr404(ctx, siteId);
  if (!site.countries.includes(input.country)) throw invalid('country', E.countryNotSold, 'The site does not serve that country');
  const methods = input.methods.map((m) => ({ method: m.method, feeMinor: m.fee_minor }));
  if (new Set(methods.map((m) => m.method)).size !== methods.length) {
    throw new HttpError(400, 'validation_failed', 'A method is listed twice', { field: 'methods' });
  }
  const before = (await sitePaymentMethods(ctx, siteId))
    .filter((r) => r.country === input.country)
    .map((r) => ({ method: r.method, fee_minor: r.feeMinor }));
  await withTransaction(ctx, async () => {
    const refused = await setPaymentMethods(ctx, siteId, input.country, methods);
    if (refused) {
      throw invalid(`methods.${refused.refusedAt}.fee_minor`, E.cardFee, 'No fee may be added to a consumer card payment in this country');
    }
    await audit(ctx, actor, {
      action: 'prices.payment_methods',
      objectType: 'site',
      objectId: `${siteId}:${input.country}`,
      before,
      after: input.methods,
    });
  });
  return methodsView(site, await sitePaymentMethods(ctx, siteId));
}

function codeView(ctx: AppContext, row: DiscountCodeRow): DiscountCodeAdminView {
  return {
    id: row.id,
    code: row.code,
    site_id: row.siteId,
    user_id: row.userId,
    country: row.country,
    value_percentage: row.valuePercentage,
    currency: row.currency,
    minimum_order_value: row.minimumOrderValue,
    status: row.status,
    source: row.source,
    paymentmethods: row.paymentMethods,
    expires: row.expiresAt.toISOString(),
    expired: row.status === 'expired' || row.expiresAt.getTime() <= ctx.now().getTime(),
  };
}

const CODES_PER_PAGE = 50;

export async function listDiscountCodes(ctx: AppContext, query: { site_id?: number; all: '0' | '1'; page: number }) {
  const { rows, total } = await discountCodesPage(
    ctx,
    { siteId: query.site_id, memberCodes: query.all === '1' },
    query.page,
    CODES_PER_PAGE,
  );
  return { codes: rows.map((row) => codeView(ctx, row)), page: query.page, pages: Math.max(1, Math.ceil(total / CODES_PER_PAGE)), total };
}

type CodeInput = z.output<typeof discountCodeAdminInputSchema>;
type CodeChange = z.output<typeof discountCodeAdminChangeSchema>;

const codeValues = (input: CodeChange) => ({
  ...(input.code !== undefined && { code: input.code }),
  ...(input.user_id !== undefined && { userId: input.user_id }),
  ...(input.country !== undefined && { country: input.country }),
  ...(input.value_percentage !== undefined && { valuePercentage: input.value_percentage }),
  ...(input.currency !== undefined && { currency: input.currency }),
  ...(input.minimum_order_value !== undefined && { minimumOrderValue: input.minimum_order_value }),
  ...(input.status !== undefined && { status: input.status }),
  ...(input.paymentmethods !== undefined && { paymentMethods: input.paymentmethods }),
  ...(input.expires !== undefined && { expiresAt: new Date(input.expires) }),
});

const codeTaken = () => invalid('code', E.codeTaken, 'The site has a code with that text already');

export async function addDiscountCode(ctx: AppContext, actor: Actor, input: CodeInput): Promise<DiscountCodeAdminView> {
  await siteOr404(ctx, input.site_id).catch(() => {
    throw new HttpError(400, 'validation_failed', 'No such site', { field: 'site_id' });
  });
  return withTransaction(ctx, async () => {
    const values = codeValues(input);
    const row = await addSiteCode(ctx, {
      ...values,
      code: input.code,
      siteId: input.site_id,
      valuePercentage: input.value_percentage,
      expiresAt: new Date(input.expires),
    });
    if (!row) throw codeTaken();
    const view = codeView(ctx, row);
    await audit(ctx, actor, { action: 'discount.add', objectType: 'discount_code', objectId: row.id, before: null, after: view });
    return view;
  });
}

export async function changeCode(ctx: AppContext, actor: Actor, id: number, input: CodeChange): Promise<DiscountCodeAdminView> {
  const before = await discountCodeRow(ctx, id);
  if (!before) throw notFound('No such discount code');
  if (input.code !== undefined) {
    const other = await discountCodeOnSite(ctx, before.siteId, input.code);
    if (other && other.id !== id) throw codeTaken();
  }
  return withTransaction(ctx, async () => {
    const row = await changeDiscountCode(ctx, id, codeValues(input));
    if (!row) throw notFound('No such discount code');
    const view = codeView(ctx, row);
    await audit(ctx, actor, {
      action: 'discount.change',
      objectType: 'discount_code',
      objectId: id,
      before: codeView(ctx, before),
      after: view,
    });
    return view;
  });
}
