import { randomBytes } from 'node:crypto';
import { sites, users } from '@amora/db';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { afterCommit, logAfterCommitErrorsTo, withTransaction } from './transaction';

let t: TestApp;
let siteId: number;

beforeAll(async () => {
  t = await createTestApp();
  const [site] = await t.ctx.db.select({ id: sites.id }).from(sites).limit(1);
  siteId = site.id;
});
afterAll(() => t.close());

/** A prefix of its own for each test's rows. */
const prefix = () => `tx-${randomBytes(4).toString('hex')}-`;
const userRow = (email: string) => ({ siteId, email, passwordHash: 'x', dateOfBirth: '1990-01-01' });

async function emailsLike(start: string): Promise<string[]> {
  const rows = await t.ctx.db
    .select({ email: users.email })
    .from(users)
    .where(like(users.email, `${start}%`));
  return rows.map((r) => r.email).sort();
}

describe('withTransaction', () => {
  it('commits everything written through tx', async () => {
    const p = prefix();
    const answer = await withTransaction(t.ctx, async (tx) => {
      await tx.insert(users).values(userRow(`${p}a`));
      await tx.insert(users).values(userRow(`${p}b`));
      return 42;
    });
    expect(answer).toBe(42);
    expect(await emailsLike(p)).toEqual([`${p}a`, `${p}b`]);
  });

  it('rolls back everything when fn throws, and passes the error on', async () => {
    const p = prefix();
    await expect(
      withTransaction(t.ctx, async (tx) => {
        await tx.insert(users).values(userRow(`${p}a`));
        await tx
          .update(users)
          .set({ credits: 99 })
          .where(eq(users.email, `${p}a`));
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await emailsLike(p)).toEqual([]);
  });

  it('runs a nested call in the outer transaction: same tx, and an error after it rolls back both', async () => {
    const p = prefix();
    let outerTx: unknown;
    let innerTx: unknown;
    await expect(
      withTransaction(t.ctx, async (tx) => {
        outerTx = tx;
        await tx.insert(users).values(userRow(`${p}outer`));
        // The inner unit sees the outer one's uncommitted row: it is the same transaction.
        const seen = await withTransaction(t.ctx, async (inner) => {
          innerTx = inner;
          await inner.insert(users).values(userRow(`${p}inner`));
          return (
            await inner
              .select({ id: users.id })
              .from(users)
              .where(eq(users.email, `${p}outer`))
          ).length;
        });
        expect(seen).toBe(1);
        throw new Error('after the inner unit');
      }),
    ).rejects.toThrow('after the inner unit');
    expect(innerTx).toBe(outerTx);
    expect(await emailsLike(p)).toEqual([]);
  });

  it('rolls the outer unit back when a nested one throws', async () => {
    const p = prefix();
    await expect(
      withTransaction(t.ctx, async (tx) => {
        await tx.insert(users).values(userRow(`${p}outer`));
        await withTransaction(t.ctx, async (inner) => {
          await inner.insert(users).values(userRow(`${p}inner`));
          throw new Error('inner failed');
        });
      }),
    ).rejects.toThrow('inner failed');
    expect(await emailsLike(p)).toEqual([]);
  });

  it('keeps parallel units apart: one rolling back leaves the other committed', async () => {
    const p = prefix();
    const results = await Promise.allSettled([
      withTransaction(t.ctx, async (tx) => {
        await tx.insert(users).values(userRow(`${p}kept`));
      }),
      withTransaction(t.ctx, async (tx) => {
        await tx.insert(users).values(userRow(`${p}dropped`));
        throw new Error('stop');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await emailsLike(p)).toEqual([`${p}kept`]);
  });

  it('gives work that outlives its unit (started inside, not awaited) a transaction of its own', async () => {
    const p = prefix();
    let later: Promise<void> = Promise.resolve();
    await withTransaction(t.ctx, async (tx) => {
      await tx.insert(users).values(userRow(`${p}unit`));
      later = new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() =>
        withTransaction(t.ctx, async (own) => {
          await own.insert(users).values(userRow(`${p}later`));
        }),
      );
    });
    await later;
    expect(await emailsLike(p)).toEqual([`${p}later`, `${p}unit`]);
  });

  it('runs every afterCommit step even when one throws, and answers as committed; the error is logged', async () => {
    const p = prefix();
    const error = vi.fn();
    logAfterCommitErrorsTo({ error });
    try {
      const ran: string[] = [];
      const answer = await withTransaction(t.ctx, async (tx) => {
        await tx.insert(users).values(userRow(`${p}a`));
        afterCommit(() => {
          throw new Error('first step failed');
        });
        afterCommit(() => ran.push('second'));
        afterCommit(async () => {
          throw new Error('an async step failed');
        });
        return 'done';
      });
      expect(answer).toBe('done');
      expect(ran).toEqual(['second']);
      expect(await emailsLike(p)).toEqual([`${p}a`]);
      await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(2));
      expect(error.mock.calls.map(([details]) => (details as { err: Error }).err.message)).toEqual([
        'first step failed',
        'an async step failed',
      ]);
      // Outside a unit of work the step runs at once, its error kept from the caller the same way.
      expect(() =>
        afterCommit(() => {
          throw new Error('outside');
        }),
      ).not.toThrow();
      expect(error).toHaveBeenCalledTimes(3);
    } finally {
      logAfterCommitErrorsTo(null);
    }
  });
});
