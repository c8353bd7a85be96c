import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditLog } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, HERZ } from '../../test/accounts';
import { createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';

/**
 * POST /api/console/sites/:id/preview: the landing page drawn from a site's unsaved settings. The web build's
 * render is a stand-in here that shows what it was given (the real one draws the page in the browser look,
 * e2e/tests/console.spec.ts); the built index.html carries a script, a module preload and a no-script notice,
 * none of which may reach the preview.
 */
const INDEX_HTML =
  '<!doctype html><html lang="en"><head><link rel="stylesheet" href="/assets/index.css"><link rel="modulepreload" href="/assets/start.js">' +
  '<script type="module" src="/assets/index.js"></script></head><body><div id="root"></div><noscript>Please enable JavaScript.</noscript></body></html>';
const FAKE_RENDER = `
export async function prerender(input) {
  const s = input.settings;
  return '<main data-url="' + input.url + '" data-cookies="' + input.cookies + '"><h1>' + s.index_title + '</h1><p>' + s.name +
    '</p><img src="' + s.fictional_icon + '" alt="' + s.fictional_singular + '"><address>' + s.company_name + '</address></main>';
}
`;

let t: TestApp;
let webDist: string;
let admin: StaffMember;
let siteId: number;
let stored: { name: string; index_title: Record<string, string>; languages: string[]; company_id: number };

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'amora-preview-'));
  writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
  mkdirSync(join(webDist, 'ssr'));
  writeFileSync(join(webDist, 'ssr', 'entry-server.js'), FAKE_RENDER);
  t = await createTestApp({ webDist });
  admin = await createStaffMember(t, 'admin');
  const list = (await callAsStaff(t, admin, 'GET', '/api/console/sites')).json();
  siteId = list.sites.find((s: { domain: string }) => s.domain.startsWith('herzklopfen')).id;
  stored = (await callAsStaff(t, admin, 'GET', `/api/console/sites/${siteId}`)).json();
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});
beforeEach(() => {
  t.clock.advance(31_000);
});

const preview = (who: StaffMember | null, query: string, body: unknown, id = siteId) =>
  callAsStaff(t, who, 'POST', `/api/console/sites/${id}/preview?${query}`, body);

describe('the preview of a site', () => {
  it('draws the landing page from the draft over the stored settings, in the language asked, and stores nothing', async () => {
    expect(stored.languages).toContain('de');
    const res = await preview(admin, 'lang=de', {
      name: 'Herzflimmern',
      index_title: { en: 'Find love', de: 'Finde die Liebe' },
      fictional_icon: '/icons/other.svg',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { html } = res.json() as { html: string };
    expect(html).toContain('<html lang="de">');
    expect(html).toContain(
      '<div id="root"><main data-url="/de" data-cookies="hide-entry-warning=1"><h1>Finde die Liebe</h1><p>Herzflimmern</p>',
    );
    expect(html).toContain('src="/icons/other.svg"');
    // What the draft leaves alone is as stored: the company behind the site.
    expect(html).toMatch(/<address>[^<]+<\/address>/);
    // The page's styles stay; nothing in it runs, and its links open no window in the console.
    expect(html).toContain('href="/assets/index.css"');
    expect(html).not.toMatch(/<script|modulepreload|<noscript/);
    expect(html).toContain('<base target="_blank"></head>');

    const now = (await callAsStaff(t, admin, 'GET', `/api/console/sites/${siteId}`)).json();
    expect(now.name).toBe(stored.name);
    expect(now.index_title).toEqual(stored.index_title);
    expect((await call(t, 'GET', '/api/settings.php', undefined, { host: HERZ })).json().name).toBe(stored.name);
    expect(await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'site.settings'))).toHaveLength(0);
  });

  it('shows a first visit with the entry warning when asked', async () => {
    const { html } = (await preview(admin, 'lang=en&first_visit=1', {})).json() as { html: string };
    expect(html).toContain('data-cookies=""');
  });

  it('refuses a draft the save would refuse field by field, and a language the site does not speak (400)', async () => {
    const cases: [string, unknown, string][] = [
      ['lang=en', { name: '' }, 'name'],
      ['lang=en', { index_title: { de: 'Ohne Englisch' } }, 'index_title.en'],
      ['lang=en', { message_credits: -1 }, 'message_credits'],
      ['lang=en', { colour: 'red' }, ''],
      ['lang=en', { company_id: 999_999 }, 'company_id'],
      ['lang=xx', {}, 'lang'],
      ['', {}, 'lang'],
    ];
    for (const [query, body, field] of cases) {
      const res = await preview(admin, query, body);
      expect(res.statusCode, `${query} ${JSON.stringify(body)}`).toBe(400);
      if (field) expect(res.json().field, `${query} ${JSON.stringify(body)}`).toBe(field);
    }
    // A draft with English alone: drawn in English, refused in German.
    expect((await preview(admin, 'lang=en', { languages: ['en'] })).statusCode).toBe(200);
    expect((await preview(admin, 'lang=de', { languages: ['en'] })).json().field).toBe('lang');
  });

  it('answers 404 for a site that does not exist', async () => {
    expect((await preview(admin, 'lang=en', {}, 999_999)).statusCode).toBe(404);
  });

  it('is for admins only: visitors and members 401, every other role 403', async () => {
    const member = await createMember(t);
    expect((await preview(null, 'lang=en', {})).statusCode).toBe(401);
    expect((await call(t, 'POST', `/api/console/sites/${siteId}/preview?lang=en`, {}, { cookie: member.cookie })).statusCode).toBe(401);
    for (const role of ['moderator', 'support', 'operator'] as const) {
      t.clock.advance(31_000);
      const res = await preview(await createStaffMember(t, role), 'lang=en', { name: 'X' });
      expect(res.statusCode, role).toBe(403);
    }
  });
});

describe('without the web build', () => {
  it('answers 503: there is no page to draw', async () => {
    const bare = await createTestApp();
    try {
      const staff = await createStaffMember(bare, 'admin');
      const list = (await callAsStaff(bare, staff, 'GET', '/api/console/sites')).json();
      const res = await callAsStaff(bare, staff, 'POST', `/api/console/sites/${list.sites[0].id}/preview?lang=en`, {});
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('preview_unavailable');
    } finally {
      await bare.close();
    }
  });
});
