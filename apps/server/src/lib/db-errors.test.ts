import { randomBytes } from 'node:crypto';
import { sites, users } from '@amora/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { isUniqueViolation } from './db-errors';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** What the database throws for the statement. */
async function errorOf(statement: Promise<unknown>): Promise<unknown> {
  try {
    await statement;
  } catch (error) {
    return error;
  }
  throw new Error('the statement went through');
}

describe('isUniqueViolation', () => {
  it('recognises a duplicate key, and which unique index refused it', async () => {
    const [site] = await t.ctx.db.select({ id: sites.id }).from(sites).limit(1);
    const email = `dup-${randomBytes(4).toString('hex')}@example.com`;
    const row = { siteId: site.id, email, passwordHash: 'x', dateOfBirth: '1990-01-01' };
    await t.ctx.db.insert(users).values(row);
    // The index compares addresses in lower case.
    const error = await errorOf(t.ctx.db.insert(users).values({ ...row, email: email.toUpperCase() }));
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'users_site_email_idx')).toBe(true);
    expect(isUniqueViolation(error, 'credit_ledger_idempotency_idx')).toBe(false);
  });

  it('is false for other database errors and for errors that are not the database’s', async () => {
    const checkFailed = await errorOf(t.ctx.db.update(users).set({ credits: -1 }));
    expect(isUniqueViolation(checkFailed)).toBe(false);
    expect(isUniqueViolation(new Error('duplicate key'))).toBe(false);
    expect(isUniqueViolation(Object.assign(new Error('gone'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
