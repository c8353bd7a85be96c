import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sites, users } from '@amora/db';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { afterCommit, dbOf, logAfterCommitErrorsTo, withTransaction } from './transaction';

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

describe('dbOf', () => {
  it("answers the open unit's transaction inside it, and the database outside", async () => {
    await withTransaction(t.ctx, async (tx) => {
      expect(dbOf(t.ctx)).toBe(tx);
      await withTransaction(t.ctx, async (inner) => expect(dbOf(t.ctx)).toBe(inner));
    });
    expect(dbOf(t.ctx)).toBe(t.ctx.db);
  });

  it("sees the unit's uncommitted rows, and rolls back with it", async () => {
    const p = prefix();
    await expect(
      withTransaction(t.ctx, async (tx) => {
        await tx.insert(users).values(userRow(`${p}a`));
        const seen = await dbOf(t.ctx)
          .select({ id: users.id })
          .from(users)
          .where(eq(users.email, `${p}a`));
        expect(seen).toHaveLength(1);
        await dbOf(t.ctx)
          .insert(users)
          .values(userRow(`${p}b`));
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await emailsLike(p)).toEqual([]);
  });
});

describe.runIf(process.env.AMORA_TEST_DB !== 'postgres')('a query beside an open unit of work (PGlite, tests and development)', () => {
  it('throws at once instead of waiting for the unit forever, and the unit rolls back', async () => {
    const p = prefix();
    const started = Date.now();
    await expect(
      withTransaction(t.ctx, async (tx) => {
        await tx.insert(users).values(userRow(`${p}a`));
        await t.ctx.db.select({ id: sites.id }).from(sites).limit(1);
      }),
    ).rejects.toThrow('queried the database outside the open transaction');
    await expect(
      withTransaction(t.ctx, async () => {
        await t.ctx.db.transaction(async (second) => {
          await second.insert(users).values(userRow(`${p}b`));
        });
      }),
    ).rejects.toThrow('queried the database outside the open transaction');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await emailsLike(p)).toEqual([]);
  });

  it('lets the database answer again once the unit has ended, also to work started inside it', async () => {
    let later: Promise<unknown> = Promise.resolve();
    await withTransaction(t.ctx, async () => {
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => t.ctx.db.select({ id: sites.id }).from(sites).limit(1));
    });
    expect(await later).toHaveLength(1);
  });
});

describe('the one way to the database (docs/ARCHITECTURE.md, "A request\'s path", step 3)', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const sources = readdirSync(join(root, 'modules'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => ({ path: relative(root, join(root, 'modules', file)), text: readFileSync(join(root, 'modules', file), 'utf8') }));
  const where = (pattern: RegExp, files = sources) =>
    files.flatMap(({ path, text }) =>
      text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );

  it('no module reads ctx.db: statements go through dbOf(ctx), units through withTransaction(ctx, …)', () => {
    expect(where(/\bctx\.db\b/)).toEqual([]);
  });

  it('no module opens a transaction of its own (db.transaction): a unit of work is withTransaction', () => {
    expect(where(/\.transaction\(/)).toEqual([]);
  });

  it('only repositories take a database or transaction first: a service is called with the context', () => {
    const services = sources.filter(({ path }) => !path.endsWith('.repository.ts'));
    expect(where(/export (async )?function \w+(<[^>]*>)?\(\s*\w+: (Executor|Database|Transaction)\b/, services)).toEqual([]);
    // A signature over several lines: its first parameter on the next line.
    const multiline = services.flatMap(({ path, text }) =>
      [...text.matchAll(/export (?:async )?function (\w+)(?:<[^>]*>)?\(\n\s*\w+: (?:Executor|Database|Transaction)\b/g)].map(
        (m) => `${path}: ${m[1]}`,
      ),
    );
    expect(multiline).toEqual([]);
  });
});
