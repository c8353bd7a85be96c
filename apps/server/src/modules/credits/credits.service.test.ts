import { randomBytes } from 'node:crypto';
import { creditLedger, sites, users } from '@amora/db';
import { eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../lib/transaction';
import { createTestApp, type TestApp } from '../../test/harness';
import { CreditKeyTaken, credit, ledger, spend, spendMany } from './credits.service';

let t: TestApp;
let siteId: number;

beforeAll(async () => {
  t = await createTestApp();
  const [site] = await t.ctx.db.select({ id: sites.id }).from(sites).limit(1);
  siteId = site.id;
});
afterAll(() => t.close());

/** A member with `credits` credits and no ledger yet (as the seed makes them). */
async function memberWith(credits: number): Promise<number> {
  const [row] = await t.ctx.db
    .insert(users)
    .values({
      siteId,
      email: `credits-${randomBytes(4).toString('hex')}@example.com`,
      passwordHash: 'x',
      dateOfBirth: '1990-01-01',
      credits,
    })
    .returning({ id: users.id });
  return row.id;
}

async function balanceOf(userId: number): Promise<number> {
  const [row] = await t.ctx.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return row.credits;
}

async function ledgerSum(userId: number): Promise<number> {
  const [row] = await t.ctx.db
    .select({ total: sum(creditLedger.delta) })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  return Number(row.total ?? 0);
}

const key = (name: string) => `test:${name}:${randomBytes(6).toString('hex')}`;

describe('credits', () => {
  it('adds and takes credits, writing a ledger row for each change', async () => {
    const userId = await memberWith(0);
    expect(await credit(t.ctx, { userId, siteId, amount: 5, reason: 'gift' })).toEqual({ balance: 5 });
    expect(await spend(t.ctx, { userId, siteId, amount: 3, reason: 'message' })).toEqual({ balance: 2 });
    expect(await spend(t.ctx, { userId, siteId, amount: 3, reason: 'message' })).toEqual({ insufficient: true });
    expect(await balanceOf(userId)).toBe(2);
    const entries = await ledger(t.ctx, userId);
    expect(entries.map((e) => [e.delta, e.balanceAfter, e.reason])).toEqual([
      [-3, 2, 'message'],
      [5, 5, 'gift'],
    ]);
  });

  it('refuses an amount that is not a whole number above zero, and changes nothing', async () => {
    const userId = await memberWith(10);
    for (const amount of [0, -1, 1.5, Number.NaN]) {
      await expect(spend(t.ctx, { userId, siteId, amount, reason: 'message' })).rejects.toThrow(RangeError);
      await expect(credit(t.ctx, { userId, siteId, amount, reason: 'gift' })).rejects.toThrow(RangeError);
    }
    expect(await balanceOf(userId)).toBe(10);
    expect(await ledger(t.ctx, userId)).toEqual([]);
  });

  it('lets exactly 10 of 100 parallel spends of 1 through on a balance of 10, never below zero', async () => {
    const userId = await memberWith(0);
    await credit(t.ctx, { userId, siteId, amount: 10, reason: 'purchase' });
    const results = await Promise.all(Array.from({ length: 100 }, () => spend(t.ctx, { userId, siteId, amount: 1, reason: 'message' })));
    const granted = results.filter((r) => 'balance' in r);
    expect(granted).toHaveLength(10);
    expect(results.filter((r) => 'insufficient' in r)).toHaveLength(90);
    // Each granted spend saw a different balance on the way down: 9, 8, … 0.
    expect(granted.map((r) => ('balance' in r ? r.balance : -1)).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await balanceOf(userId)).toBe(0);
    expect(await ledgerSum(userId)).toBe(0);
    const entries = await ledger(t.ctx, userId);
    expect(entries).toHaveLength(11);
    expect(entries.every((e) => e.balanceAfter >= 0)).toBe(true);
  });

  it('changes the balance once for 20 parallel calls with one idempotency key, and answers them all alike', async () => {
    const userId = await memberWith(30);
    const idempotencyKey = key('spend');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => spend(t.ctx, { userId, siteId, amount: 7, reason: 'photo', idempotencyKey })),
    );
    expect(results).toEqual(Array.from({ length: 20 }, () => ({ balance: 23 })));
    expect(await balanceOf(userId)).toBe(23);
    const rows = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.idempotencyKey, idempotencyKey));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId, delta: -7, balanceAfter: 23, reason: 'photo' });
    // A retry much later still answers what the first call answered, though the balance has moved since.
    await credit(t.ctx, { userId, siteId, amount: 2, reason: 'gift' });
    expect(await spend(t.ctx, { userId, siteId, amount: 7, reason: 'photo', idempotencyKey })).toEqual({ balance: 23 });
    expect(await balanceOf(userId)).toBe(25);
    expect(await ledgerSum(userId)).toBe(25 - 30);
  });

  it('credits once for 20 parallel calls with one key', async () => {
    const userId = await memberWith(0);
    const idempotencyKey = key('credit');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => credit(t.ctx, { userId, siteId, amount: 50, reason: 'purchase', idempotencyKey })),
    );
    expect(new Set(results.map((r) => r.balance))).toEqual(new Set([50]));
    expect(await balanceOf(userId)).toBe(50);
    expect(await ledger(t.ctx, userId)).toHaveLength(1);
  });

  it('does not remember a refused spend: its key is free for a retry once there are credits', async () => {
    const userId = await memberWith(2);
    const idempotencyKey = key('refused');
    expect(await spend(t.ctx, { userId, siteId, amount: 5, reason: 'gift', idempotencyKey })).toEqual({ insufficient: true });
    expect(await ledger(t.ctx, userId)).toEqual([]);
    await credit(t.ctx, { userId, siteId, amount: 3, reason: 'purchase' });
    expect(await spend(t.ctx, { userId, siteId, amount: 5, reason: 'gift', idempotencyKey })).toEqual({ balance: 0 });
  });

  it('answers a retry as the first spend did after the credits ran out, and takes nothing more', async () => {
    const userId = await memberWith(5);
    const idempotencyKey = key('spent-out');
    expect(await spend(t.ctx, { userId, siteId, amount: 5, reason: 'gift', idempotencyKey })).toEqual({ balance: 0 });
    expect(await spend(t.ctx, { userId, siteId, amount: 5, reason: 'gift', idempotencyKey })).toEqual({ balance: 0 });
    await credit(t.ctx, { userId, siteId, amount: 4, reason: 'purchase' });
    // Enough for neither a new spend of 5 nor a second taking: the retry is answered, the balance stays.
    expect(await spend(t.ctx, { userId, siteId, amount: 5, reason: 'gift', idempotencyKey })).toEqual({ balance: 0 });
    expect(await balanceOf(userId)).toBe(4);
    expect(await ledger(t.ctx, userId)).toHaveLength(2);
  });

  it("refuses a key used for another member's change and leaves both balances alone", async () => {
    const first = await memberWith(10);
    const second = await memberWith(10);
    const idempotencyKey = key('other');
    await spend(t.ctx, { userId: first, siteId, amount: 1, reason: 'message', idempotencyKey });
    await expect(spend(t.ctx, { userId: second, siteId, amount: 1, reason: 'message', idempotencyKey })).rejects.toThrow(
      /another credit change/,
    );
    expect(await balanceOf(first)).toBe(9);
    expect(await balanceOf(second)).toBe(10);
    expect(await ledger(t.ctx, second)).toEqual([]);
  });

  it('answers a key used twice in one unit of work as the first use, with one ledger row', async () => {
    const userId = await memberWith(10);
    const idempotencyKey = key('twice');
    const answers = await withTransaction(t.ctx, async () => [
      await spend(t.ctx, { userId, siteId, amount: 3, reason: 'gift', idempotencyKey }),
      await spend(t.ctx, { userId, siteId, amount: 3, reason: 'gift', idempotencyKey }),
    ]);
    expect(answers).toEqual([{ balance: 7 }, { balance: 7 }]);
    expect(await balanceOf(userId)).toBe(7);
    expect(await ledger(t.ctx, userId)).toHaveLength(1);
    expect(await ledgerSum(userId)).toBe(7 - 10);
  });

  it('joins the unit of work it is called in: an error after the spend rolls the spend back', async () => {
    const userId = await memberWith(10);
    await expect(
      withTransaction(t.ctx, async () => {
        expect(await spend(t.ctx, { userId, siteId, amount: 4, reason: 'message', idempotencyKey: key('rolled-back') })).toEqual({
          balance: 6,
        });
        expect(await ledger(t.ctx, userId)).toHaveLength(1);
        throw new Error('the message could not be stored');
      }),
    ).rejects.toThrow('the message could not be stored');
    expect(await balanceOf(userId)).toBe(10);
    expect(await ledger(t.ctx, userId)).toEqual([]);
  });
});

describe('spendMany (a batch of spends in one unit of work)', () => {
  it('takes each spend in order, answers the balance after each, and writes a ledger row for each', async () => {
    const [a, b] = [await memberWith(10), await memberWith(5)];
    const keys = [key('a1'), key('b1'), key('a2')];
    const results = await spendMany(t.ctx, [
      { userId: a, siteId, amount: 3, reason: 'message', idempotencyKey: keys[0] },
      { userId: b, siteId, amount: 5, reason: 'gift', idempotencyKey: keys[1] },
      { userId: a, siteId, amount: 4, reason: 'message', idempotencyKey: keys[2] },
    ]);
    expect(results).toEqual([{ balance: 7 }, { balance: 0 }, { balance: 3 }]);
    expect([await balanceOf(a), await balanceOf(b)]).toEqual([3, 0]);
    expect((await ledger(t.ctx, a)).map((e) => [e.delta, e.balanceAfter]).sort()).toEqual([
      [-3, 7],
      [-4, 3],
    ]);
    expect([await ledgerSum(a), await ledgerSum(b)]).toEqual([-7, -5]);
  });

  it('refuses every spend of a member whose balance does not cover all of theirs, and takes nothing from them', async () => {
    const [poor, rich] = [await memberWith(5), await memberWith(50)];
    const results = await spendMany(t.ctx, [
      { userId: poor, siteId, amount: 3, reason: 'message', idempotencyKey: key('p1') },
      { userId: rich, siteId, amount: 10, reason: 'message', idempotencyKey: key('r1') },
      { userId: poor, siteId, amount: 3, reason: 'message', idempotencyKey: key('p2') },
    ]);
    expect(results).toEqual([{ insufficient: true }, { balance: 40 }, { insufficient: true }]);
    expect([await balanceOf(poor), await ledgerSum(poor)]).toEqual([5, 0]);
    expect([await balanceOf(rich), await ledgerSum(rich)]).toEqual([40, -10]);
  });

  it('throws CreditKeyTaken when a key was used before: its unit of work rolls back, nothing is taken twice', async () => {
    const userId = await memberWith(20);
    const used = key('used');
    expect(await spend(t.ctx, { userId, siteId, amount: 5, reason: 'message', idempotencyKey: used })).toEqual({ balance: 15 });
    await expect(
      withTransaction(t.ctx, () =>
        spendMany(t.ctx, [
          { userId, siteId, amount: 2, reason: 'message', idempotencyKey: key('new') },
          { userId, siteId, amount: 5, reason: 'message', idempotencyKey: used },
        ]),
      ),
    ).rejects.toBeInstanceOf(CreditKeyTaken);
    expect([await balanceOf(userId), await ledgerSum(userId)]).toEqual([15, -5]);
  });

  it('holds under batches at the same moment: never below zero, the ledger the balance', async () => {
    const userId = await memberWith(30);
    const batches = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        spendMany(t.ctx, [
          { userId, siteId, amount: 2, reason: 'message', idempotencyKey: key(`x${i}`) },
          { userId, siteId, amount: 2, reason: 'message', idempotencyKey: key(`y${i}`) },
        ]),
      ),
    );
    const paid = batches.flat().filter((r) => 'balance' in r).length;
    expect(paid).toBe(14);
    expect(await balanceOf(userId)).toBe(2);
    expect(await ledgerSum(userId)).toBe(-28);
  });
});
