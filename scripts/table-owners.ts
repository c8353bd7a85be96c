// Each table has one owner (docs/ARCHITECTURE.md): the one module whose repository inserts, updates and deletes
// its rows. Another module that needs a row changed asks the owner's service. Checked by scripts/boundaries.ts
// (`npm run lint`) and scripts/boundaries.test.ts (`npm test`): a write from any other module fails, and so
// does a table of the schema that has no owner here, so a new table is given one when it comes.
// The seed (demo data for an empty database) and the test harness and factories are not checked: like the
// dependency rules, these rules are about the shipped code.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as schema from '@amora/db/schema';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';

/** Table (its export name in packages/db/src/schema) → the module that writes it: a folder of modules/, or a file of lib/. */
export const TABLE_OWNERS: Record<string, string> = {
  // the account row: its status, language, balance columns and flags (modules/accounts)
  users: 'accounts',
  sessions: 'sessions',
  accountTokens: 'auth',
  signupMessages: 'auth',
  profiles: 'profiles',
  blocks: 'profiles',
  photos: 'photos',
  likes: 'likes',
  skips: 'discovery',
  swipeDays: 'discovery',
  conversations: 'chat',
  messages: 'chat',
  complaints: 'complaints',
  creditLedger: 'credits',
  creditPackages: 'payments',
  paymentMethods: 'payments',
  paymentCustomers: 'payments',
  paymentOrders: 'payments',
  paymentEvents: 'payments',
  sandboxPayments: 'payments',
  sandboxCustomers: 'payments',
  sandboxMandates: 'payments',
  discountCodes: 'discounts',
  discountRedemptions: 'discounts',
  directDebitMandates: 'directdebit',
  smsVerifications: 'directdebit',
  outboxEmails: 'mail',
  mailReports: 'mail',
  notificationPreferences: 'notifications',
  memberPresence: 'notifications',
  messageNotices: 'notifications',
  memberReminders: 'reminders',
  pushSubscriptions: 'push',
  serverKeys: 'lib/server-keys',
  outboxSms: 'sms',
  staffUsers: 'staff',
  staffRecoveryCodes: 'staff',
  staffSessions: 'staff',
  auditLog: 'staff',
  memberSanctions: 'moderation',
  dataExports: 'data-export',
  inboxClaims: 'inbox',
  mailings: 'campaigns',
  mailingRecipients: 'campaigns',
  pageBounces: 'telemetry',
  siteVisits: 'telemetry',
  reportDays: 'reports',
  reportDaySources: 'reports',
  reportDayMoney: 'reports',
  reportRollup: 'reports',
  sites: 'sites',
  companies: 'sites',
  rateLimits: 'lib/limiter',
  jobs: 'lib/jobs',
  jobSchedules: 'lib/jobs',
};

/** The schema's tables by export name, from drizzle's table objects. */
export function schemaTables(): Map<string, string> {
  const tables = new Map<string, string>();
  for (const [name, value] of Object.entries(schema)) if (is(value, PgTable)) tables.set(name, getTableName(value));
  return tables;
}

/** The module a server file belongs to: modules/<name>/… → name, lib/<name>(.repository).ts → lib/<name>; null for what is not checked. */
export function moduleOf(path: string): string | null {
  const module = /^apps\/server\/src\/modules\/([^/]+)\//.exec(path);
  if (module) return module[1];
  const lib = /^apps\/server\/src\/lib\/([^/.]+)(?:\.repository)?\.ts$/.exec(path);
  if (lib) return `lib/${lib[1]}`;
  return null;
}

export interface TableWrite {
  table: string;
  file: string;
  module: string;
}

const IDENT = '[A-Za-z_$][\\w$]*';

/** The writes of table objects imported from @amora/db in one source: `.insert(t)`, `.update(t)`, `.delete(t)`, and `insert into ${t}`, `update ${t}`, `delete from ${t}` in SQL. */
export function writesIn(source: string, tables: ReadonlySet<string>): string[] {
  const local = new Map<string, string>();
  for (const match of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@amora\/db(?:\/schema)?'/g)) {
    for (const part of match[1].split(',')) {
      const [imported, alias] = part
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .map((s) => s.trim());
      if (imported && tables.has(imported)) local.set(alias ?? imported, imported);
    }
  }
  for (const match of source.matchAll(new RegExp(`import\\s*\\*\\s*as\\s+(${IDENT})\\s+from\\s*'@amora\\/db(?:\\/schema)?'`, 'g'))) {
    for (const table of tables) local.set(`${match[1]}.${table}`, table);
  }
  const found = new Set<string>();
  const name = `(${IDENT}(?:\\.${IDENT})?)`;
  for (const pattern of [
    new RegExp(`\\.(?:insert|update|delete)\\(\\s*${name}\\s*[),]`, 'g'),
    new RegExp(`\\b(?:insert\\s+into|update|delete\\s+from)\\s+\\$\\{\\s*${name}\\s*\\}`, 'gi'),
  ]) {
    for (const match of source.matchAll(pattern)) {
      const table = local.get(match[1]);
      if (table) found.add(table);
    }
  }
  return [...found];
}

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every write of a table in the server's modules and lib/, with the module it is made from. */
export function tableWrites(baseDir: string, tables: ReadonlySet<string>): TableWrite[] {
  const writes: TableWrite[] = [];
  for (const path of sourcesOf(join(baseDir, 'apps/server/src'))) {
    const file = relative(baseDir, path).split('\\').join('/');
    const module = moduleOf(file);
    if (!module) continue;
    for (const table of writesIn(readFileSync(path, 'utf8'), tables)) writes.push({ table, file, module });
  }
  return writes;
}

/** What breaks the rule: a table without an owner, an owner for no table, and each write from a module that does not own the table. */
export function checkTableOwners({
  baseDir,
  tables = [...schemaTables().keys()],
  owners = TABLE_OWNERS,
}: {
  baseDir: string;
  tables?: string[];
  owners?: Record<string, string>;
}): string[] {
  const problems: string[] = [];
  for (const table of tables) if (!owners[table]) problems.push(`table-owner: ${table} has no owner (scripts/table-owners.ts)`);
  for (const table of Object.keys(owners)) if (!tables.includes(table)) problems.push(`table-owner: ${table} is not a table of the schema`);
  for (const write of tableWrites(baseDir, new Set(tables))) {
    const owner = owners[write.table];
    if (owner && write.module !== owner) problems.push(`table-owner: ${write.file} writes ${write.table}, which ${owner} owns`);
  }
  return problems.sort();
}
