import { creditLedger, type DbHandle, openDatabase, users } from '@amora/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { adminUrl } from '../../test/paths';
import { lockBuyer, lockMemberForDirectDebit } from './payments.repository';

/**
 * The locks a purchase takes on the member's row, against a paid message at the same moment: the message's
 * transaction inserts a row that points at the member (its foreign key holds a KEY SHARE lock on the member's row),
 * and then updates the balance. A purchase locking the row FOR UPDATE in between waited for that KEY SHARE while
 * the message's update waited behind it: PostgreSQL ended one of them as a deadlock. Two connections, so PostgreSQL
 * only (PGlite is one connection in the process).
 */
const onPostgres = process.env.AMORA_TEST_DB === 'postgres';
let t: TestApp;
let other: DbHandle;

beforeAll(async () => {
  t = await createTestApp();
  if (!onPostgres) return;
  const result = (await t.ctx.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
  other = await openDatabase({ url: adminUrl(process.env.TEST_DATABASE_URL as string, result.rows[0].name), poolSize: 2 });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

describe.skipIf(!onPostgres)("a purchase's lock on the member's row", () => {
  for (const [name, lock] of [
    ['lockBuyer', lockBuyer],
    ['lockMemberForDirectDebit', lockMemberForDirectDebit],
  ] as const) {
    it(`${name} takes turns with a paid message's ledger row and balance update, without a deadlock`, async () => {
      const member = await createMember(t);
      await t.ctx.db.update(users).set({ credits: 100 }).where(eq(users.id, member.userId));
      const [{ siteId }] = await t.ctx.db.select({ siteId: users.siteId }).from(users).where(eq(users.id, member.userId));
      let releaseMessage: () => void = () => {};
      const messageMayUpdate = new Promise<void>((resolve) => {
        releaseMessage = resolve;
      });
      let ledgerInserted: () => void = () => {};
      const inserted = new Promise<void>((resolve) => {
        ledgerInserted = resolve;
      });
      // The message: a row pointing at the member, then (once the purchase holds its lock) the balance.
      const message = t.ctx.db.transaction(async (tx) => {
        await tx.insert(creditLedger).values({ userId: member.userId, siteId, delta: -10, balanceAfter: 90, reason: 'message' });
        ledgerInserted();
        await messageMayUpdate;
        await tx
          .update(users)
          .set({ credits: sql`${users.credits} - 10` })
          .where(eq(users.id, member.userId));
      });
      await inserted;
      // The purchase, on another connection: its lock is granted beside the message's KEY SHARE.
      const purchase = other.db.transaction(async (tx) => {
        const locked = lock(tx, member.userId);
        const row = await Promise.race([locked, new Promise((resolve) => setTimeout(() => resolve('waiting'), 2_000))]);
        releaseMessage();
        expect(row).not.toBe('waiting');
        // The message's update now waits for this transaction, which ends first.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx
          .update(users)
          .set({ credits: sql`${users.credits} + 50` })
          .where(eq(users.id, member.userId));
      });
      await expect(Promise.all([message, purchase])).resolves.toBeDefined();
      const [after] = await t.ctx.db.select({ credits: users.credits }).from(users).where(eq(users.id, member.userId));
      expect(after.credits).toBe(140);
    });
  }
});
