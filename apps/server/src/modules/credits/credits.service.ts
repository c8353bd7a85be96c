import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { addToBalance, addToBalances } from '../accounts/accounts.service';
import { claimKey, claimKeys, findByKey, insertEntry, type LedgerRow, listLedger } from './credits.repository';

/**
 * Credits: the only code that changes a member's balance. Every change writes its ledger row in the same
 * transaction, so the ledger always sums to the balance, and a balance never goes below zero.
 */
export interface CreditChangeInput {
  userId: number;
  siteId: number;
  /** Credits added (credit) or taken (spend): a whole number above zero. */
  amount: number;
  /** Why, for the ledger: 'signup', 'message', 'photo', 'gift', 'purchase'… */
  reason: string;
  /**
   * The same change retried (a repeated request, a payment notice sent twice) carries the same key: only the
   * first one changes the balance, every other one answers what the first answered. Keys are unique over all
   * members, so build them from what identifies the change (`signup:<user id>`, `order:<order id>`).
   */
  idempotencyKey?: string;
}

export type SpendResult = { balance: number } | { insufficient: true };

export interface LedgerEntry {
  delta: number;
  balanceAfter: number;
  reason: string;
  createdAt: Date;
}

/**
 * Takes `amount` credits. `{ insufficient: true }` when the balance is smaller: nothing is written, and a
 * retry with the same key tries again. Joins the caller's unit of work when called inside withTransaction.
 */
export async function spend(ctx: DbContext, input: CreditChangeInput): Promise<SpendResult> {
  return change(ctx, input, -checkedAmount(input.amount));
}

/** A change of a batch was made under a key taken before: the batch wrote nothing once its unit of work rolls back. */
export class CreditKeyTaken extends Error {}

/**
 * Several spends in one unit of work, each with its key (a batch of chat sends): three statements whatever their
 * number (the balances, locked in the order of their ids, and the ledger rows). A member whose balance does not
 * cover all of their spends of the batch gets `{ insufficient: true }` for each and nothing is taken from them (each
 * spend on its own might have covered some: the caller retries those with `spend`). Every other spend answers its
 * balance after it, in the order given. When a key was taken before (a retry), this throws CreditKeyTaken after its
 * writes: the caller lets its unit of work roll back and makes each spend on its own, as `spend` answers retries.
 */
export async function spendMany(ctx: DbContext, inputs: (CreditChangeInput & { idempotencyKey: string })[]): Promise<SpendResult[]> {
  const totals = new Map<number, number>();
  for (const input of inputs) totals.set(input.userId, (totals.get(input.userId) ?? 0) + checkedAmount(input.amount));
  return withTransaction(ctx, async (tx) => {
    const balances = await addToBalances(
      ctx,
      [...totals].map(([userId, total]) => ({ userId, delta: -total })),
    );
    // Walking each member's spends in order from the balance before them gives each its balance after it.
    const running = new Map([...balances].map(([userId, balance]) => [userId, balance + (totals.get(userId) ?? 0)]));
    const results: SpendResult[] = [];
    const entries = [];
    for (const input of inputs) {
      const before = running.get(input.userId);
      if (before === undefined) {
        results.push({ insufficient: true });
        continue;
      }
      const balanceAfter = before - input.amount;
      running.set(input.userId, balanceAfter);
      entries.push({ ...entryOf(input, -input.amount, balanceAfter), idempotencyKey: input.idempotencyKey });
      results.push({ balance: balanceAfter });
    }
    const claimed = await claimKeys(tx, entries);
    if (claimed.size < entries.length) throw new CreditKeyTaken('A credit change of the batch was made before under its key');
    return results;
  });
}

/** Adds `amount` credits and answers the new balance. */
export async function credit(ctx: DbContext, input: CreditChangeInput): Promise<{ balance: number }> {
  const result = await change(ctx, input, checkedAmount(input.amount));
  if ('insufficient' in result) throw new Error(`No user ${input.userId} to credit`);
  return result;
}

/** A member's ledger, newest first (inside a caller's unit of work, as that unit sees it). */
export async function ledger(ctx: DbContext, userId: number): Promise<LedgerEntry[]> {
  return (await listLedger(dbOf(ctx), userId)).map((row) => ({
    delta: row.delta,
    balanceAfter: row.balanceAfter,
    reason: row.reason,
    createdAt: row.createdAt,
  }));
}

/** A member's latest `limit` ledger rows, newest first, with their ids and keys (the transactions page). */
export async function movements(
  ctx: DbContext,
  userId: number,
  limit: number,
): Promise<(LedgerEntry & { id: number; idempotencyKey: string | null })[]> {
  return (await listLedger(dbOf(ctx), userId, limit)).map((row) => ({
    id: row.id,
    delta: row.delta,
    balanceAfter: row.balanceAfter,
    reason: row.reason,
    createdAt: row.createdAt,
    idempotencyKey: row.idempotencyKey,
  }));
}

function checkedAmount(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`A credit change is a whole number above zero, not ${amount}`);
  return amount;
}

/**
 * The balance first (its row stays locked until the unit of work ends), then the ledger row with the new balance:
 * two statements. With a key, the row is written with INSERT … ON CONFLICT DO NOTHING on its unique index; when the
 * key was taken (a retry, or a concurrent call with the key that committed while this one waited for the balance's
 * row), this call takes its change back (a third statement, on that path only) and answers what the first answered,
 * so of concurrent calls with one key exactly one changes the balance. A change refused for the balance answers a
 * change made before under its key (a retry after the credits ran out) as that change answered.
 */
async function change(ctx: DbContext, input: CreditChangeInput, delta: number): Promise<SpendResult> {
  const { userId } = input;
  const key = input.idempotencyKey ?? null;
  return withTransaction(ctx, async (tx) => {
    const balance = await addToBalance(ctx, userId, delta);
    if (balance === null) {
      const first = key === null ? undefined : await findByKey(tx, key);
      return first ? replay(first, input, delta) : ({ insufficient: true } as const);
    }
    const entry = entryOf(input, delta, balance);
    if (key === null) {
      await insertEntry(tx, entry);
      return { balance };
    }
    if (await claimKey(tx, entry)) return { balance };
    // The balance's row is ours since the change above: taking it back cannot be refused.
    if ((await addToBalance(ctx, userId, -delta)) === null) throw new Error(`Credit change ${key} could not be taken back`);
    const first = await findByKey(tx, key);
    if (!first) throw new Error(`Credit change ${key} was claimed and its ledger row removed`);
    return replay(first, input, delta);
  });
}

function entryOf(input: CreditChangeInput, delta: number, balanceAfter: number) {
  return {
    userId: input.userId,
    siteId: input.siteId,
    delta,
    balanceAfter,
    reason: input.reason,
    idempotencyKey: input.idempotencyKey ?? null,
  };
}

function replay(first: LedgerRow, input: CreditChangeInput, delta: number): SpendResult {
  if ((first.userId !== null && first.userId !== input.userId) || first.delta !== delta) {
    throw new Error(`Idempotency key ${first.idempotencyKey} was used for another credit change`);
  }
  return { balance: first.balanceAfter };
}
