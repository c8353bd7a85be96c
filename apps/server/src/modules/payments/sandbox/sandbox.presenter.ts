import { toMollieAmount } from '../provider/amounts';
import { isCancelable, methodDescription, type SandboxMethod } from './sandbox.catalogue';
import type { SandboxCustomer, SandboxMandate, SandboxPayment, SandboxRefund } from './sandbox.repository';

/** The JSON Mollie's API v2 answers with, for what the sandbox keeps. Links are absolute, as Mollie's are. */
export interface Links {
  /** The API root, e.g. http://localhost:3000/sandbox/mollie/v2 */
  api: string;
  /** Where the payer's browser finds the sandbox's pages (the test checkout), e.g. http://amora.localhost:3000 */
  pages: string;
}

const HAL = 'application/hal+json';
const DOCS = 'https://docs.mollie.com/reference';

const link = (href: string, type = HAL) => ({ href, type });
const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, '+00:00');

const PROBLEM_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** Mollie's error body; the client library turns it into an ApiError with this status, detail and field. */
export function problem(status: number, detail: string, field?: string) {
  return {
    status,
    title: PROBLEM_TITLES[status] ?? 'Error',
    detail,
    ...(field ? { field } : {}),
    _links: { documentation: link(`${DOCS}/handling-errors`, 'text/html') },
  };
}

function presentMethod(method: SandboxMethod, currency: string, locale: string | null, links: Links) {
  return {
    resource: 'method',
    id: method.id,
    description: methodDescription(method, locale),
    minimumAmount: toMollieAmount(method.minimumMinor, currency),
    maximumAmount: method.maximumMinor === null ? null : toMollieAmount(method.maximumMinor, currency),
    image: {
      size1x: `https://www.mollie.com/external/icons/payment-methods/${method.id}.png`,
      size2x: `https://www.mollie.com/external/icons/payment-methods/${method.id}%402x.png`,
      svg: `https://www.mollie.com/external/icons/payment-methods/${method.id}.svg`,
    },
    status: 'activated',
    _links: { self: link(`${links.api}/methods/${method.id}`) },
  };
}

export function presentMethods(methods: SandboxMethod[], currency: string, locale: string | null, links: Links, query: string) {
  return {
    count: methods.length,
    _embedded: { methods: methods.map((method) => presentMethod(method, currency, locale, links)) },
    _links: { self: link(`${links.api}/methods${query}`), documentation: link(`${DOCS}/list-methods`, 'text/html') },
  };
}

function presentDetails(payment: SandboxPayment): Record<string, unknown> | undefined {
  const d = payment.details;
  if (payment.method === 'creditcard' && d.cardLabel) {
    return {
      cardHolder: d.cardHolder ?? 'T. Test',
      cardNumber: d.cardNumber ?? '0000',
      cardLabel: d.cardLabel,
      cardFingerprint: `sandbox${payment.id.slice(3)}`,
      cardCountryCode: payment.billingCountry ?? 'NL',
      cardSecurity: 'normal',
    };
  }
  if (d.consumerName || d.consumerAccount) {
    return { consumerName: d.consumerName ?? null, consumerAccount: d.consumerAccount ?? null, consumerBic: null };
  }
  return undefined;
}

/** A payment as Mollie answers it (GET /payments/:id). */
export function presentPayment(payment: SandboxPayment, links: Links, now: Date) {
  const amount = (minor: number) => toMollieAmount(minor, payment.currency);
  const isOpen = payment.status === 'open';
  const isPaid = payment.status === 'paid';
  const details = presentDetails(payment);
  return {
    resource: 'payment',
    id: payment.id,
    mode: 'test',
    createdAt: iso(payment.createdAt),
    amount: amount(payment.amountMinor),
    description: payment.description,
    method: payment.method,
    metadata: payment.metadata ?? null,
    status: payment.status,
    isCancelable: isCancelable(payment),
    ...(isOpen && payment.expiresAt ? { expiresAt: iso(payment.expiresAt) } : {}),
    ...(payment.status === 'expired' ? { expiredAt: iso(payment.expiresAt ?? now) } : {}),
    ...(payment.paidAt ? { paidAt: iso(payment.paidAt) } : {}),
    ...(isPaid
      ? {
          amountRefunded: amount(payment.amountRefundedMinor),
          amountRemaining: amount(Math.max(0, payment.amountMinor - payment.amountRefundedMinor - payment.amountChargedBackMinor)),
          settlementAmount: amount(payment.amountMinor),
        }
      : {}),
    ...(payment.amountChargedBackMinor > 0 ? { amountChargedBack: amount(payment.amountChargedBackMinor) } : {}),
    profileId: 'pfl_sandbox0001',
    sequenceType: payment.sequenceType,
    ...(payment.redirectUrl ? { redirectUrl: payment.redirectUrl } : {}),
    ...(payment.cancelUrl ? { cancelUrl: payment.cancelUrl } : {}),
    ...(payment.webhookUrl ? { webhookUrl: payment.webhookUrl } : {}),
    ...(payment.locale ? { locale: payment.locale } : {}),
    ...(payment.billingCountry ? { countryCode: payment.billingCountry } : {}),
    ...(payment.customerId ? { customerId: payment.customerId } : {}),
    ...(payment.mandateId ? { mandateId: payment.mandateId } : {}),
    ...(details ? { details } : {}),
    _links: {
      self: link(`${links.api}/payments/${payment.id}`),
      // The hosted checkout while the payer still has to act; recurring payments have none.
      ...(isOpen && payment.sequenceType !== 'recurring'
        ? { checkout: link(`${links.pages}/sandbox/checkout/${payment.id}`, 'text/html') }
        : {}),
      dashboard: link(`${links.pages}/sandbox#${payment.id}`, 'text/html'),
      ...(payment.customerId ? { customer: link(`${links.api}/customers/${payment.customerId}`) } : {}),
      ...(payment.mandateId && payment.customerId
        ? { mandate: link(`${links.api}/customers/${payment.customerId}/mandates/${payment.mandateId}`) }
        : {}),
      ...(payment.amountChargedBackMinor > 0 ? { chargebacks: link(`${links.api}/payments/${payment.id}/chargebacks`) } : {}),
      documentation: link(`${DOCS}/get-payment`, 'text/html'),
    },
  };
}

export function presentPaymentsPage(payments: SandboxPayment[], links: Links, now: Date, self: string) {
  return {
    count: payments.length,
    _embedded: { payments: payments.map((payment) => presentPayment(payment, links, now)) },
    _links: { self: link(self), previous: null, next: null, documentation: link(`${DOCS}/list-payments`, 'text/html') },
  };
}

export function presentCustomer(customer: SandboxCustomer, links: Links) {
  return {
    resource: 'customer',
    id: customer.id,
    mode: 'test',
    name: customer.name,
    email: customer.email,
    locale: null,
    metadata: customer.metadata ?? null,
    createdAt: iso(customer.createdAt),
    _links: {
      self: link(`${links.api}/customers/${customer.id}`),
      dashboard: link(`${links.pages}/sandbox`, 'text/html'),
      mandates: link(`${links.api}/customers/${customer.id}/mandates`),
      payments: link(`${links.api}/customers/${customer.id}/payments`),
      documentation: link(`${DOCS}/get-customer`, 'text/html'),
    },
  };
}

export function presentRefund(refund: SandboxRefund, links: Links) {
  return {
    resource: 'refund',
    id: refund.id,
    mode: 'test',
    description: refund.description,
    amount: toMollieAmount(refund.amountMinor, refund.payment.currency),
    status: 'refunded',
    metadata: null,
    paymentId: refund.payment.id,
    createdAt: iso(refund.createdAt),
    _links: {
      self: link(`${links.api}/payments/${refund.payment.id}/refunds/${refund.id}`),
      payment: link(`${links.api}/payments/${refund.payment.id}`),
      documentation: link(`${DOCS}/create-refund`, 'text/html'),
    },
  };
}

export function presentMandate(mandate: SandboxMandate, links: Links) {
  return {
    resource: 'mandate',
    id: mandate.id,
    mode: 'test',
    status: mandate.status,
    method: mandate.method,
    details:
      mandate.method === 'directdebit'
        ? { consumerName: mandate.consumerName, consumerAccount: mandate.consumerAccount, consumerBic: 'TESTNL2A' }
        : {
            cardHolder: mandate.consumerName,
            cardNumber: mandate.consumerAccount,
            cardLabel: null,
            cardFingerprint: mandate.id,
            cardExpiryDate: null,
          },
    mandateReference: `AMORA-${mandate.id.slice(4).toUpperCase()}`,
    signatureDate: mandate.createdAt.toISOString().slice(0, 10),
    createdAt: iso(mandate.createdAt),
    _links: {
      self: link(`${links.api}/customers/${mandate.customerId}/mandates/${mandate.id}`),
      customer: link(`${links.api}/customers/${mandate.customerId}`),
      documentation: link(`${DOCS}/get-mandate`, 'text/html'),
    },
  };
}

export function presentMandatesPage(mandates: SandboxMandate[], links: Links, customerId: string) {
  return {
    count: mandates.length,
    _embedded: { mandates: mandates.map((mandate) => presentMandate(mandate, links)) },
    _links: {
      self: link(`${links.api}/customers/${customerId}/mandates`),
      previous: null,
      next: null,
      documentation: link(`${DOCS}/list-mandates`, 'text/html'),
    },
  };
}
