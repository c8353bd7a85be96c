import { randomUUID } from 'node:crypto';
import { auditLog, paymentOrders } from '@amora/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, HERZ } from '../../test/accounts';
import { callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';

let t: TestApp;
let admin: StaffMember;
const others: StaffMember[] = [];
let herzId: number;
let companyId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createStaffMember(t, 'admin');
  for (const role of ['moderator', 'support', 'operator'] as const) {
    t.clock.advance(31_000);
    others.push(await createStaffMember(t, role));
  }
  const list = (await callAsStaff(t, admin, 'GET', '/api/console/sites')).json();
  const herz = list.sites.find((s: { domain: string }) => s.domain.startsWith('herzklopfen'));
  herzId = herz.id;
  companyId = herz.company_id;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.clock.advance(31_000);
});

async function auditOf(action: string) {
  return t.ctx.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));
}

const supportPhoneAt = async (app: TestApp) =>
  (await call(app, 'GET', '/api/settings.php', undefined, { host: HERZ })).json().support_phone;

describe('who may edit sites and prices', () => {
  let member: Member;
  beforeAll(async () => {
    member = await createMember(t);
  });

  const routes = () =>
    [
      ['GET', '/api/console/sites', undefined],
      ['GET', `/api/console/sites/${herzId}`, undefined],
      ['PUT', `/api/console/sites/${herzId}`, { refund_days: 14 }],
      ['GET', `/api/console/companies/${companyId}`, undefined],
      ['GET', `/api/console/sites/${herzId}/packages`, undefined],
      ['POST', `/api/console/sites/${herzId}/packages`, { country: 'DE', currency: 'EUR', credits: 10, price_minor: 999 }],
      ['PUT', `/api/console/sites/${herzId}/packages/1`, { country: 'DE', currency: 'EUR', credits: 10, price_minor: 999 }],
      ['GET', `/api/console/sites/${herzId}/payment-methods`, undefined],
      ['PUT', `/api/console/sites/${herzId}/payment-methods`, { country: 'DE', methods: [] }],
      ['GET', '/api/console/discount-codes', undefined],
      ['POST', '/api/console/discount-codes', { code: 'X1', site_id: 1, value_percentage: 10, expires: '2030-01-01T00:00:00Z' }],
      ['PUT', '/api/console/discount-codes/1', { value_percentage: 10 }],
    ] as const;

  it('refuses visitors and members (401) and every role but admin (403)', async () => {
    for (const [method, url, body] of routes()) {
      expect((await callAsStaff(t, null, method, url, body)).statusCode, url).toBe(401);
      expect((await call(t, method, url, body, { cookie: member.cookie })).statusCode, url).toBe(401);
      for (const who of others) {
        const res = await callAsStaff(t, who, method, url, body);
        expect(res.statusCode, `${who.role} ${method} ${url}`).toBe(403);
        expect(res.json().error).toBe('forbidden');
      }
    }
  });

  it('lets an admin read every list', async () => {
    for (const [method, url] of routes().filter(([m]) => m === 'GET')) {
      expect((await callAsStaff(t, admin, method, url)).statusCode, url).toBe(200);
    }
    const company = (await callAsStaff(t, admin, 'GET', `/api/console/companies/${companyId}`)).json();
    expect(company.sites.some((d: string) => d.startsWith('herzklopfen'))).toBe(true);
  });
});

describe('site settings', () => {
  it('answers every §3 setting with a link to the site', async () => {
    const site = (await callAsStaff(t, admin, 'GET', `/api/console/sites/${herzId}`)).json();
    expect(site).toMatchObject({
      id: herzId,
      domain: expect.stringMatching(/^herzklopfen/),
      preview_url: expect.stringMatching(/^http:\/\/herzklopfen/),
    });
    for (const key of [
      'message_credits',
      'minimum_message_costs',
      'fictional_warning',
      'niche',
      'signups',
      'delete_discount',
      'interests',
    ]) {
      expect(site, key).toHaveProperty(key);
    }
    expect((await callAsStaff(t, admin, 'GET', '/api/console/sites/999999')).statusCode).toBe(404);
  });

  it("saves every site's settings back as they are shown (what the console's form sends)", async () => {
    const { sites } = (await callAsStaff(t, admin, 'GET', '/api/console/sites')).json();
    for (const { id } of sites as { id: number }[]) {
      const {
        id: _id,
        is_default: _d,
        company_name: _c,
        preview_url: _p,
        ...settings
      } = (await callAsStaff(t, admin, 'GET', `/api/console/sites/${id}`)).json();
      const res = await callAsStaff(t, admin, 'PUT', `/api/console/sites/${id}`, settings);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('answers 400 with the field on bad input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ niche: 9 }, 'niche'],
      [{ delete_discount: 100 }, 'delete_discount'],
      [{ support_email: 'not mail' }, 'support_email'],
      [{ default_country: 'US' }, 'default_country'],
      [{ domain_language: 'xx' }, 'domain_language'],
      [{ fictional_plural: { de: 'x' } }, 'fictional_plural.en'],
      [{ enable_site_entry_popup: 'maybe' }, 'enable_site_entry_popup'],
      [{ unknown_setting: 1 }, 'unknown_setting'],
      [{ domain: 'localhost' }, 'domain'],
      [{ company_id: 999_999 }, 'company_id'],
    ];
    for (const [body, field] of cases) {
      const res = await callAsStaff(t, admin, 'PUT', `/api/console/sites/${herzId}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
  });

  it('changes a setting, seen at the next request, with an audit row of before and after', async () => {
    const before = await supportPhoneAt(t);
    const res = await callAsStaff(t, admin, 'PUT', `/api/console/sites/${herzId}`, { support_phone: '+49 30 555 0101' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().support_phone).toBe('+49 30 555 0101');
    await t.ctx.events.idle();
    expect(await supportPhoneAt(t)).toBe('+49 30 555 0101');
    const [row] = await auditOf('site.settings');
    expect(row).toMatchObject({ staffId: admin.id, objectType: 'site', objectId: String(herzId) });
    expect(row.before).toEqual({ support_phone: before });
    expect(row.after).toEqual({ support_phone: '+49 30 555 0101' });
  });
});

describe('companies', () => {
  it('changes the legal data, audited; bad input is 400 with the field', async () => {
    const company = (await callAsStaff(t, admin, 'GET', `/api/console/companies/${companyId}`)).json();
    const { id: _id, sites: _sites, ...data } = company;
    const bad = await callAsStaff(t, admin, 'PUT', `/api/console/companies/${companyId}`, { ...data, country: 'germany' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('country');
    const res = await callAsStaff(t, admin, 'PUT', `/api/console/companies/${companyId}`, { ...data, city: 'Leipzig' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().city).toBe('Leipzig');
    const [row] = await auditOf('company.change');
    expect(row.objectId).toBe(String(companyId));
    expect((row.before as { city: string }).city).toBe(company.city);
    expect((row.after as { city: string }).city).toBe('Leipzig');
  });
});

describe('prices', () => {
  it('adds and changes a package, audited; a country the site does not serve is refused', async () => {
    const site = (await callAsStaff(t, admin, 'GET', `/api/console/sites/${herzId}`)).json();
    const country = site.default_country as string;
    const refused = await callAsStaff(t, admin, 'POST', `/api/console/sites/${herzId}/packages`, {
      country: 'JP',
      currency: 'JPY',
      credits: 10,
      price_minor: 900,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().field).toBe('country');
    const bad = await callAsStaff(t, admin, 'POST', `/api/console/sites/${herzId}/packages`, {
      country,
      currency: 'EUR',
      credits: 0,
      price_minor: 900,
    });
    expect(bad.json().field).toBe('credits');
    const added = await callAsStaff(t, admin, 'POST', `/api/console/sites/${herzId}/packages`, {
      country,
      currency: 'EUR',
      credits: 7,
      price_minor: 777,
      active: false,
    });
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().id as number;
    const changed = await callAsStaff(t, admin, 'PUT', `/api/console/sites/${herzId}/packages/${id}`, {
      country,
      currency: 'EUR',
      credits: 8,
      price_minor: 888,
      active: false,
    });
    expect(changed.json()).toMatchObject({ id, credits: 8, price_minor: 888, active: false });
    const [row] = await auditOf('prices.package_change');
    expect(row.before).toMatchObject({ credits: 7, price_minor: 777 });
    expect(row.after).toMatchObject({ credits: 8, price_minor: 888 });
    const list = (await callAsStaff(t, admin, 'GET', `/api/console/sites/${herzId}/packages`)).json();
    expect(list.packages.some((p: { id: number }) => p.id === id)).toBe(true);
  });

  it('refuses a fee on a consumer card in the EEA, on the field of that method', async () => {
    const res = await callAsStaff(t, admin, 'PUT', `/api/console/sites/${herzId}/payment-methods`, {
      country: 'DE',
      methods: [
        { method: 'paypal', fee_minor: 50 },
        { method: 'visa', fee_minor: 30 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('methods.1.fee_minor');
  });

  it('sets the methods of a country with their fees, audited', async () => {
    const before = (await callAsStaff(t, admin, 'GET', `/api/console/sites/${herzId}/payment-methods`)).json();
    const de = before.countries.find((c: { country: string }) => c.country === 'DE');
    expect(de.no_card_fees).toBe(true);
    const methods = [
      { method: 'visa', fee_minor: 0 },
      { method: 'paypal', fee_minor: 45 },
      ...de.methods
        .filter((m: { method: string }) => m.method !== 'visa' && m.method !== 'paypal')
        .map((m: { method: string; fee_minor: number }) => ({ method: m.method, fee_minor: m.fee_minor })),
    ];
    const res = await callAsStaff(t, admin, 'PUT', `/api/console/sites/${herzId}/payment-methods`, { country: 'DE', methods });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json().countries.find((c: { country: string }) => c.country === 'DE');
    expect(after.methods.slice(0, 2)).toEqual([
      { method: 'visa', fee_minor: 0, card: true },
      { method: 'paypal', fee_minor: 45, card: false },
    ]);
    const [row] = await auditOf('prices.payment_methods');
    expect(row.objectId).toBe(`${herzId}:DE`);
  });
});

describe('discount codes', () => {
  it('adds and changes a code with every field, audited; a taken code is 400 on code', async () => {
    const code = `SPRING${randomUUID().slice(0, 4).toUpperCase()}`;
    const body = {
      code: code.toLowerCase(),
      site_id: herzId,
      country: 'DE',
      value_percentage: 15,
      currency: 'EUR',
      minimum_order_value: 1000,
      paymentmethods: ['ideal', 'paypal'],
      expires: '2030-06-01T00:00:00Z',
    };
    const added = await callAsStaff(t, admin, 'POST', '/api/console/discount-codes', body);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ code, status: 'active', source: 'code', expired: false, paymentmethods: ['ideal', 'paypal'] });
    const again = await callAsStaff(t, admin, 'POST', '/api/console/discount-codes', body);
    expect(again.statusCode).toBe(400);
    expect(again.json().field).toBe('code');
    const bad = await callAsStaff(t, admin, 'POST', '/api/console/discount-codes', { ...body, code: 'OTHER1', value_percentage: 100 });
    expect(bad.json().field).toBe('value_percentage');
    const id = added.json().id as number;
    const changed = await callAsStaff(t, admin, 'PUT', `/api/console/discount-codes/${id}`, { status: 'inactive', value_percentage: 20 });
    expect(changed.json()).toMatchObject({ status: 'inactive', value_percentage: 20, minimum_order_value: 1000, country: 'DE' });
    const [row] = await auditOf('discount.change');
    expect(row.before).toMatchObject({ status: 'active', value_percentage: 15 });
    expect(row.after).toMatchObject({ status: 'inactive', value_percentage: 20 });
    const list = (await callAsStaff(t, admin, 'GET', `/api/console/discount-codes?site_id=${herzId}`)).json();
    expect(list.codes[0]).toMatchObject({ id, code });
  });
});

// A second server process: its own connections to the same PostgreSQL database and to Redis.
const withRedis = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

describe.skipIf(!withRedis)('two processes on one database and Redis', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp({}, { joining: t });
  });
  afterAll(async () => {
    await other?.close();
  });

  it('a site setting changed through one process is answered by the other at once', async () => {
    await supportPhoneAt(other);
    const res = await callAsStaff(t, admin, 'PUT', `/api/console/sites/${herzId}`, { support_phone: '+49 40 555 0202' });
    expect(res.statusCode, res.body).toBe(200);
    await t.ctx.events.idle();
    await expect.poll(() => supportPhoneAt(other), { timeout: 2_000 }).toBe('+49 40 555 0202');
  });

  it("a price changed through one process is used by the other's next order", async () => {
    const member = await createMember(other);
    const listed = (await callAs(other, member, 'GET', '/api/packages.php')).json().packages as { id: number; credits: number }[];
    const pkg = (await callAsStaff(t, admin, 'GET', '/api/console/sites/1/packages'))
      .json()
      .packages.find((p: { id: number }) => p.id === listed[0].id);
    const { id: packageId, ...values } = pkg;
    const res = await callAsStaff(t, admin, 'PUT', `/api/console/sites/1/packages/${packageId}`, {
      ...values,
      price_minor: pkg.price_minor + 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    const started = await callAs(other, member, 'POST', '/api/payments.php', {
      request_id: randomUUID(),
      package: packageId,
      method: 'ideal',
    });
    expect(started.statusCode, started.body).toBe(201);
    const [order] = await other.ctx.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.id, started.json().order.id), eq(paymentOrders.packageId, packageId)));
    expect(order.listPriceMinor).toBe(pkg.price_minor + 100);
  });
});
