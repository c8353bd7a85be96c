import type { NotificationsDisabledReason } from '@amora/contracts';
import type { users } from '@amora/db';
import { type DbContext, dbOf } from '../../lib/transaction';
import * as rows from './accounts.repository';

/**
 * The account row (`users`) has one owner, this module: every insert, update and delete of it is here
 * (scripts/table-owners.ts). Each is one statement, in the caller's unit of work when one is open (dbOf); the
 * rules of when it may happen stay with the caller: signup, activation, passwords, addresses and language in
 * auth; the balance in credits (the only code that changes one); the paid flag, the debt and the direct-debit
 * block in payments (the paid flag also photos' dev switch); deleting and reactivating in deletion; read
 * receipts in chat-safety. This module imports no other, so every module may call it.
 */

/** A new account (a unique index refuses a second account with the address on the site). */
export function insertUser(ctx: DbContext, user: typeof users.$inferInsert): Promise<rows.UserRow> {
  return rows.insertUser(dbOf(ctx), user);
}

/** The address is confirmed by its link. */
export function confirmUser(ctx: DbContext, userId: number, now: Date): Promise<void> {
  return rows.confirmUser(dbOf(ctx), userId, now);
}

export function setPasswordHash(ctx: DbContext, userId: number, passwordHash: string): Promise<void> {
  return rows.setPasswordHash(dbOf(ctx), userId, passwordHash);
}

export function setLanguage(ctx: DbContext, userId: number, language: string): Promise<void> {
  return rows.setLanguage(dbOf(ctx), userId, language);
}

/** The new address, confirmed by its link: the account counts as confirmed. */
export function setConfirmedEmail(ctx: DbContext, userId: number, email: string, confirmedAt: Date): Promise<void> {
  return rows.setConfirmedEmail(dbOf(ctx), userId, email, confirmedAt);
}

/** Mail to the member stops for `reason` (a bounce, a spam report, an unsubscribe): answers whether it was new. */
export function addNotificationsDisabled(ctx: DbContext, userId: number, reason: NotificationsDisabledReason): Promise<boolean> {
  return rows.addNotificationsDisabled(dbOf(ctx), userId, reason);
}

/** The member resumes mail for these reasons. */
export function removeNotificationsDisabled(
  ctx: DbContext,
  userId: number,
  reasons: readonly NotificationsDisabledReason[],
): Promise<void> {
  return rows.removeNotificationsDisabled(dbOf(ctx), userId, reasons);
}

/** Read receipts on or off (the member's own setting). */
export function setReadReceipts(ctx: DbContext, userId: number, enabled: boolean): Promise<void> {
  return rows.setReadReceipts(dbOf(ctx), userId, enabled);
}

/** Adds `delta` to the balance unless it would go below zero: the new balance, or null when nothing changed. Credits' service only. */
export function addToBalance(ctx: DbContext, userId: number, delta: number): Promise<number | null> {
  return rows.addToBalance(dbOf(ctx), userId, delta);
}

/** addToBalance for several members at once (credits' batches): the new balances of those changed, by user id. */
export function addToBalances(ctx: DbContext, changes: { userId: number; delta: number }[]): Promise<Map<number, number>> {
  return rows.addToBalances(dbOf(ctx), changes);
}

/** Premium for good after a purchase (spec §4); the dev switch of photos turns it off again. */
export function setPaidUser(ctx: DbContext, userId: number, paid: boolean): Promise<void> {
  return rows.setPaidUser(dbOf(ctx), userId, paid);
}

export function setCreditDebt(ctx: DbContext, userId: number, creditDebt: number): Promise<void> {
  return rows.setCreditDebt(dbOf(ctx), userId, creditDebt);
}

/** After a chargeback: the rest of the credits owed, and no more direct debit. */
export function addDebtAndBlock(ctx: DbContext, userId: number, debt: number): Promise<void> {
  return rows.addDebtAndBlock(dbOf(ctx), userId, debt);
}

/** Direct debit allowed again (support, after a chargeback); the debt stays. */
export function unblockDirectDebit(ctx: DbContext, userId: number): Promise<void> {
  return rows.unblockDirectDebit(dbOf(ctx), userId);
}

/** The account is deleted, with the reason given. */
export function markUserDeleted(
  ctx: DbContext,
  userId: number,
  deletion: { deletedAt: Date; reason: string; reasonText: string | null },
): Promise<void> {
  return rows.markUserDeleted(dbOf(ctx), userId, deletion);
}

/** A deleted account comes back with the status it had. */
export function restoreUser(ctx: DbContext, userId: number, status: 'confirmed' | 'not_confirmed'): Promise<void> {
  return rows.restoreUser(dbOf(ctx), userId, status);
}

/** The account purge: the account row itself, last. */
export function deleteUser(ctx: DbContext, userId: number): Promise<void> {
  return rows.deleteUser(dbOf(ctx), userId);
}
