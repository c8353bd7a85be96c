import { bestValueId, type CreditPackage, type Movement, type Order, type Receipt } from '@amora/contracts';
import type { Site } from '../sites/sites.service';
import type { OrderRow, PackageRow } from './payments.repository';

/** One package, best_value false: presentPackages marks the one that is cheapest per credit. */
export function presentPackage(row: PackageRow, discountMinor: number): CreditPackage {
  return {
    id: row.id,
    credits: row.credits,
    price: row.priceMinor,
    currency: row.currency,
    best_value: false,
    discounted_price: discountMinor > 0 ? row.priceMinor - discountMinor : null,
  };
}

/** The packages of a list, the one cheapest per credit at the price paid marked best value (worked out, never stored). */
export function presentPackages(rows: readonly PackageRow[], discountsMinor: readonly number[]): CreditPackage[] {
  const packages = rows.map((row, k) => presentPackage(row, discountsMinor[k] ?? 0));
  const best = bestValueId(packages);
  return packages.map((pkg) => (pkg.id === best ? { ...pkg, best_value: true } : pkg));
}

export function presentOrder(row: OrderRow): Order {
  const waiting = row.status === 'created' || row.status === 'open';
  return {
    id: row.id,
    status: row.status,
    package_id: row.packageId,
    credits: row.credits,
    currency: row.currency,
    list_price: row.listPriceMinor,
    discount: row.discountMinor,
    fee: row.feeMinor,
    amount: row.amountMinor,
    method: row.method,
    recurring: row.sequenceType === 'recurring',
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    checkout_url: waiting ? row.checkoutUrl : null,
  };
}

const ORDER_KEY = /^(?:pay|chargeback|debt|refund):(\d{1,16})(?::\d{1,16})?$/;

export function presentMovement(row: {
  id: number;
  delta: number;
  balanceAfter: number;
  reason: string;
  createdAt: Date;
  idempotencyKey: string | null;
}): Movement {
  const match = row.idempotencyKey ? ORDER_KEY.exec(row.idempotencyKey) : null;
  return {
    id: row.id,
    delta: row.delta,
    balance_after: row.balanceAfter,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    order_id: match ? Number(match[1]) : null,
  };
}

/** The receipt of a paid order: `<site>-<year>-<order id>`, the site's company, one line per part of the price. */
export function presentReceipt(site: Site, row: OrderRow, percentage: number | null): Receipt {
  const paidAt = row.paidAt ?? row.updatedAt;
  const c = site.company;
  const { method } = row;
  const lines: Receipt['lines'] = [{ kind: 'package', amount: row.listPriceMinor, credits: row.credits, percentage: null, method: null }];
  if (row.discountMinor > 0) lines.push({ kind: 'discount', amount: -row.discountMinor, credits: null, percentage, method: null });
  if (row.feeMinor > 0) lines.push({ kind: 'fee', amount: row.feeMinor, credits: null, percentage: null, method });
  return {
    number: `${site.id}-${paidAt.getUTCFullYear()}-${String(row.id).padStart(6, '0')}`,
    date: paidAt.toISOString(),
    site: site.name,
    company: { id: c.id, name: c.name, address: c.address, city: c.city, country: c.country, kvk: c.kvk, vat_numbers: c.vatNumbers },
    currency: row.currency,
    lines,
    total: row.amountMinor,
    method,
    payment_country: row.country,
  };
}
