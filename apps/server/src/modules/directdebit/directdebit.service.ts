import { DIRECT_DEBIT_OPEN_LIMIT } from '@amora/contracts';
import type { Executor } from '@amora/db';
import { countOpenDirectDebits, findCustomer, findValidMandate, lockMemberForDirectDebit } from './directdebit.repository';

export type DirectDebitAllowed =
  | { ok: true; mandateId: string; customerId: string }
  | { ok: false; error: 'direct_debit_blocked' | 'direct_debit_limit' | 'mandate_required' };

/**
 * Whether the member may start a direct-debit payment now, and with which provider mandate and customer.
 * Call it with the transaction of the unit of work that stores the order: it locks the member's row, so of
 * parallel starts one at a time counts the open debits and adds its own, and the limit holds. In this order:
 * blocked after a chargeback, no valid mandate (of `provider`, when given), DIRECT_DEBIT_OPEN_LIMIT reached.
 */
export async function directDebitAllowed(db: Executor, userId: number, options: { provider?: string } = {}): Promise<DirectDebitAllowed> {
  const member = await lockMemberForDirectDebit(db, userId);
  if (!member || member.blocked) return { ok: false, error: 'direct_debit_blocked' };
  const mandate = await findValidMandate(db, userId, options.provider);
  const customerId = mandate ? await findCustomer(db, userId, mandate.provider) : null;
  if (!mandate || !customerId) return { ok: false, error: 'mandate_required' };
  if ((await countOpenDirectDebits(db, userId)) >= DIRECT_DEBIT_OPEN_LIMIT) return { ok: false, error: 'direct_debit_limit' };
  return { ok: true, mandateId: mandate.providerMandateId, customerId };
}
