import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FICTIONAL_ICON, INTERESTS, LOCALES, TARGET_COUNTRIES } from '@amora/contracts/core';
import { count } from 'drizzle-orm';
import type { Database } from './client';
import { companies, creditLedger, notificationPreferences, profiles, sites, staffUsers, users } from './schema';
import { seedPaymentCatalogue } from './seed-payments';

type SiteTexts = Record<
  'amora' | 'herzklopfen',
  Record<'indexTitle' | 'description' | 'fictionalWarning' | 'fictionalSingular' | 'fictionalPlural', string>
>;

/** The demo sites' own texts in every locale, from seed-texts/<locale>.json. */
function loadSiteTexts(): Record<'amora' | 'herzklopfen', Record<string, Record<string, string>>> {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'seed-texts');
  const out: Record<string, Record<string, Record<string, string>>> = { amora: {}, herzklopfen: {} };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const locale = file.slice(0, -5);
    const texts = JSON.parse(readFileSync(join(dir, file), 'utf8')) as SiteTexts;
    for (const site of ['amora', 'herzklopfen'] as const) {
      for (const [key, value] of Object.entries(texts[site])) {
        out[site][key] ??= {};
        out[site][key][locale] = value;
      }
    }
  }
  return out as Record<'amora' | 'herzklopfen', Record<string, Record<string, string>>>;
}

/** Demo chat texts of one locale: two conversations (lines alternate, the starter first), a stranger's first two
 * messages, and what a member writes to a fictional profile (no answer: those wait for the operator queue). */
export interface DemoChatTexts {
  scripts: string[][];
  openers: string[];
  toFictional: string[];
}

/** The demo conversations' texts in every locale, from seed-texts/<locale>.json (`chat`). */
export function loadDemoChatTexts(): Record<string, DemoChatTexts> {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'seed-texts');
  const out: Record<string, DemoChatTexts> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    out[file.slice(0, -5)] = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { chat: DemoChatTexts }).chat;
  }
  return out;
}

const ALL_LOCALES: string[] = [...LOCALES];
const ALL_COUNTRIES: string[] = [...TARGET_COUNTRIES];
const INTERESTS_LIST: string[] = [...INTERESTS];
const PROFILE_FIELDS = ['gender', 'sexuality', 'relationship_status', 'hair_colour', 'eye_colour', 'body_type', 'interests'];
const EURO_COSTS = { costs: 1, currency: 'EUR' };

export const DEMO_PASSWORD = 'amora-demo-2026';
/** The demo logins, one per demo site, each in its site's language (its chats are written in it). */
export const DEMO_MEMBERS = [
  { site: 'amora.localhost', email: 'demo@amora.example', name: 'Sam', country: 'NL', language: 'en' },
  { site: 'herzklopfen.localhost', email: 'demo@herzklopfen.example', name: 'Alex', country: 'DE', language: 'de' },
] as const;

/**
 * The demo console's staff, one per role, with one password and one authenticator secret (development only: `npm
 * start` prints them, and the dev page /api/dev/console-code.php shows their current code).
 */
export const DEMO_STAFF_PASSWORD = 'amora-console-2026';
export const DEMO_STAFF_TOTP_SECRET = 'JBSWY3DPEHPK3PXPAMORADEMOCONSOLE';
export const DEMO_STAFF = [
  { email: 'admin@amora.example', name: 'Ada Admin', role: 'admin' },
  { email: 'moderator@amora.example', name: 'Milo Moderator', role: 'moderator' },
  { email: 'support@amora.example', name: 'Sofia Support', role: 'support' },
  { email: 'operator@amora.example', name: 'Otto Operator', role: 'operator' },
] as const;

/** The demo staff that are missing (on a new database, and on one made before the console or a role existed). */
export async function seedDemoStaff(db: Database, hashPassword: (password: string) => Promise<string>): Promise<boolean> {
  const existing = new Set((await db.select({ email: staffUsers.email }).from(staffUsers)).map((row) => row.email.toLowerCase()));
  const missing = DEMO_STAFF.filter((staff) => !existing.has(staff.email));
  if (missing.length === 0) return false;
  const passwordHash = await hashPassword(DEMO_STAFF_PASSWORD);
  await db
    .insert(staffUsers)
    .values(missing.map((staff) => ({ ...staff, passwordHash, totpSecret: DEMO_STAFF_TOTP_SECRET, totpLastStep: 0 })))
    .onConflictDoNothing();
  return true;
}

/** Whether any site exists (the demo data is made only when none does). */
export async function hasSites(db: Database): Promise<boolean> {
  const [{ value: siteCount }] = await db.select({ value: count() }).from(sites);
  return siteCount > 0;
}

/** Companies, two branded sites and a demo member on each. Runs once, on an empty database. */
export async function seedDemo(db: Database, hashPassword: (password: string) => Promise<string>): Promise<boolean> {
  if (await hasSites(db)) return false;

  await db.insert(companies).values([
    {
      id: 1,
      name: 'Amora Media B.V.',
      address: 'Herengracht 182',
      city: '1016 BR Amsterdam',
      country: 'NL',
      kvk: '90123456',
      vatNumbers: ['NL865432109B01'],
      tradenames: ['Amora'],
      added: '2021-06-01',
    },
    {
      id: 5,
      name: 'Heartline Digital Ltd',
      address: '14 Fitzwilliam Square',
      city: 'Dublin 2, D02 X285',
      country: 'IE',
      kvk: '712345',
      vatNumbers: ['IE3456789LH'],
      tradenames: ['Herzklopfen', 'Heartline'],
      added: '2024-03-15',
    },
    {
      id: 6,
      name: 'Nordlys Interactive AB',
      address: 'Sveavägen 44',
      city: '111 34 Stockholm',
      country: 'SE',
      kvk: '559912-3456',
      vatNumbers: ['SE559912345601'],
      tradenames: ['Nordlys Dating'],
      added: '2025-01-20',
    },
  ]);

  const siteTexts = loadSiteTexts();
  const common = {
    visibleProfileFields: PROFILE_FIELDS,
    visibleProfileNotes: ['about'],
    cdnPrefix: '',
    messageLength: 1000,
    interests: INTERESTS_LIST,
    searchFields: ['gender', 'country', 'countryregion', 'min_age', 'max_age'],
    fictionalIcon: DEFAULT_FICTIONAL_ICON,
  };

  const inserted = await db
    .insert(sites)
    .values([
      {
        ...common,
        ...(siteTexts.amora as unknown as Pick<
          typeof sites.$inferInsert,
          'indexTitle' | 'description' | 'fictionalWarning' | 'fictionalSingular' | 'fictionalPlural'
        >),
        domain: 'amora.localhost',
        hosts: ['amora.localhost', 'localhost'],
        isDefault: true,
        name: 'Amora',
        niche: 1,
        companyId: 1,
        domainLanguage: 'en',
        languages: ALL_LOCALES,
        countries: ALL_COUNTRIES,
        defaultCountry: 'NL',
        messageCredits: 10,
        signupCredits: 20,
        photoCredits: 5,
        giftCredits: 25,
        minimumMessageCosts: Object.fromEntries(
          ALL_COUNTRIES.map((c) => [
            c,
            c === 'GB'
              ? { costs: 1, currency: 'GBP' }
              : c === 'PL'
                ? { costs: 4, currency: 'PLN' }
                : ['US', 'CA', 'AU', 'NZ'].includes(c)
                  ? { costs: 1, currency: c === 'US' ? 'USD' : c === 'CA' ? 'CAD' : c === 'AU' ? 'AUD' : 'NZD' }
                  : c === 'CH'
                    ? { costs: 1, currency: 'CHF' }
                    : EURO_COSTS,
          ]),
        ),
        supportEmail: 'support@amora.example',
        supportPhone: '+31 20-123 4567',
        deleteDiscount: 30,
        enableSiteEntryPopup: 'yes',
        enableUsFooter: true,
        refundDays: 14,
        signups: 'all',
        loggedOutSearch: true,
        loggedOutSearchTrafficsource: true,
        memberResell: false,
      },
      {
        ...common,
        ...(siteTexts.herzklopfen as unknown as Pick<
          typeof sites.$inferInsert,
          'indexTitle' | 'description' | 'fictionalWarning' | 'fictionalSingular' | 'fictionalPlural'
        >),
        domain: 'herzklopfen.localhost',
        hosts: ['herzklopfen.localhost', '127.0.0.1'],
        isDefault: false,
        name: 'Herzklopfen',
        niche: 6,
        companyId: 5,
        domainLanguage: 'de-DE',
        languages: ['de', 'en', 'nl', 'fr', 'it', 'pl'],
        countries: ['DE', 'AT', 'CH', 'NL', 'BE'],
        defaultCountry: 'DE',
        messageCredits: 12,
        signupCredits: 15,
        photoCredits: 6,
        giftCredits: 30,
        minimumMessageCosts: { DE: EURO_COSTS, AT: EURO_COSTS, NL: EURO_COSTS, BE: EURO_COSTS, CH: { costs: 1, currency: 'CHF' } },
        supportEmail: 'hilfe@herzklopfen.example',
        supportPhone: '+353 1-555 0147',
        deleteDiscount: 40,
        enableSiteEntryPopup: 'yes',
        enableUsFooter: false,
        refundDays: 30,
        signups: 'all',
        loggedOutSearch: false,
        loggedOutSearchTrafficsource: true,
        memberResell: false,
      },
    ])
    .returning({ id: sites.id, domain: sites.domain });

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const member of DEMO_MEMBERS) {
    const site = inserted.find((s) => s.domain === member.site);
    if (!site) continue;
    const [user] = await db
      .insert(users)
      .values({
        siteId: site.id,
        email: member.email,
        passwordHash,
        status: 'confirmed',
        language: member.language,
        dateOfBirth: '1990-05-17',
        credits: 20,
        confirmedAt: new Date(),
      })
      .returning({ id: users.id });
    // The balance comes through the ledger as every change of credits does, so the ledger sums to it.
    await db
      .insert(creditLedger)
      .values({ userId: user.id, siteId: site.id, delta: 20, balanceAfter: 20, reason: 'demo', idempotencyKey: `demo:${user.id}` });
    await db
      .insert(profiles)
      .values({ userId: user.id, siteId: site.id, name: member.name, country: member.country, status: 'active', birthDate: '1990-05-17' });
    // The demo login opted in to news and offers by email (both are off until a member chooses them), so a
    // mailing sent from the console reaches someone to look at.
    await db.insert(notificationPreferences).values([
      { userId: user.id, type: 'news', channel: 'email', enabled: true },
      { userId: user.id, type: 'promotions', channel: 'email', enabled: true },
    ]);
  }
  await seedPaymentCatalogue(db);
  return true;
}
