import type { Locale, Mandate, MollieClient, SequenceType as MollieSequenceType, Payment, PaymentMethod } from '@mollie/api-client';
import { fromMollieAmount, toMollieAmount } from './amounts';
import type {
  CreatePaymentInput,
  ListMethodsQuery,
  PaymentProvider,
  ProviderMandate,
  ProviderMethod,
  ProviderPayment,
  ProviderPaymentStatus,
  ProviderRefund,
  SequenceType,
} from './provider';
import { loadMollie, routeClientThrough, type Transport } from './transport';

/** Mollie's API root (the library's default). */
export const MOLLIE_API_ENDPOINT = 'https://api.mollie.com/v2/';

export interface MollieProviderOptions {
  /** 'mollie' for Mollie itself, 'sandbox' for the built-in sandbox speaking Mollie's API. */
  name: 'mollie' | 'sandbox';
  apiKey: string;
  /** Where the API is: Mollie's by default, the sandbox's /sandbox/mollie/v2/, or a stand-in in tests. */
  apiEndpoint?: string;
  /**
   * How requests travel when not to Mollie's https endpoint (transport.ts): in process to the sandbox, or plain
   * HTTP. Without it the library's own HTTPS transport is used.
   */
  transport?: Transport;
  /**
   * Mollie refuses a webhook URL it cannot reach ('unreachable from Mollie's point of view'), such as
   * localhost: with `dropLocalWebhooks` such a URL is left out of the payment instead (the status check of an
   * open order then finds the result). On for Mollie itself; the sandbox reaches every URL.
   */
  dropLocalWebhooks?: boolean;
}

const PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/;
const CUSTOMER_ID = /^cst_[A-Za-z0-9]{1,64}$/;

/** Whether a URL names this machine or a private network, which Mollie's servers cannot call. */
function isLocalUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^(fc|fd)[0-9a-f]{2}:/.test(host)
  );
}

function toProviderPayment(payment: Payment): ProviderPayment {
  const amount = fromMollieAmount(payment.amount);
  return {
    id: payment.id,
    status: payment.status as ProviderPaymentStatus,
    amount,
    method: payment.method ?? null,
    sequenceType: payment.sequenceType as SequenceType,
    checkoutUrl: payment.getCheckoutUrl() ?? null,
    customerId: payment.customerId ?? null,
    mandateId: payment.mandateId ?? null,
    chargedBackMinor: payment.amountChargedBack ? fromMollieAmount(payment.amountChargedBack).minor : 0,
    refundedMinor: payment.amountRefunded ? fromMollieAmount(payment.amountRefunded).minor : 0,
    metadata: payment.metadata ?? null,
    paidAt: payment.paidAt ?? null,
  };
}

function toProviderMandate(mandate: Mandate): ProviderMandate {
  return { id: mandate.id, method: mandate.method, status: mandate.status as ProviderMandate['status'] };
}

/**
 * The one PaymentProvider: Mollie's API through the official client. Pointed at Mollie (MOLLIE_API_KEY) or at
 * the sandbox, which answers the same requests in the same shapes (modules/payments/sandbox).
 */
export function createMollieProvider(options: MollieProviderOptions): PaymentProvider {
  const apiEndpoint = options.apiEndpoint ?? MOLLIE_API_ENDPOINT;
  // The client is made with the first request (the library is loaded then: transport.ts, loadMollie).
  let made: Promise<MollieClient> | undefined;
  const mollieClient = () => {
    made ??= loadMollie().then(({ createMollieClient }) => {
      const client = createMollieClient({ apiKey: options.apiKey, apiEndpoint });
      if (options.transport) routeClientThrough(client, apiEndpoint, options.apiKey, options.transport);
      return client;
    });
    return made;
  };
  const isNotFound = async (error: unknown) => error instanceof (await loadMollie()).MollieApiError && error.statusCode === 404;
  const dropLocalWebhooks = options.dropLocalWebhooks ?? options.name === 'mollie';

  return {
    name: options.name,

    async listMethods(query: ListMethodsQuery): Promise<ProviderMethod[]> {
      const methods = await (await mollieClient()).methods.list({
        amount: toMollieAmount(query.amount.minor, query.amount.currency),
        ...(query.locale ? { locale: query.locale as Locale } : {}),
        ...(query.billingCountry ? { billingCountry: query.billingCountry.toUpperCase() } : {}),
        ...(query.sequenceType ? { sequenceType: query.sequenceType as MollieSequenceType } : {}),
        // Apple Pay is listed only when asked for: whether the payer's device has it is the checkout's to say.
        includeWallets: 'applepay',
      });
      return methods.map((method) => ({
        id: method.id,
        description: method.description,
        ...(method.issuers?.length ? { issuers: method.issuers.map((issuer) => issuer.id) } : {}),
      }));
    },

    async createPayment(input: CreatePaymentInput): Promise<ProviderPayment> {
      const webhookUrl = input.webhookUrl && !(dropLocalWebhooks && isLocalUrl(input.webhookUrl)) ? input.webhookUrl : undefined;
      const parameters = {
        amount: toMollieAmount(input.amount.minor, input.amount.currency),
        description: input.description,
        ...(input.redirectUrl ? { redirectUrl: input.redirectUrl } : {}),
        ...(input.cancelUrl ? { cancelUrl: input.cancelUrl } : {}),
        ...(webhookUrl ? { webhookUrl } : {}),
        ...(input.method ? { method: input.method as PaymentMethod } : {}),
        ...(input.locale ? { locale: input.locale as Locale } : {}),
        ...(input.billingCountry ? { restrictPaymentMethodsToCountry: input.billingCountry.toUpperCase() } : {}),
        sequenceType: input.sequenceType as MollieSequenceType,
        ...(input.mandateId ? { mandateId: input.mandateId } : {}),
        metadata: input.metadata,
        idempotencyKey: input.idempotencyKey,
      };
      // A payment for a customer (first or recurring) goes to the customer's payments, as Mollie documents it.
      const client = await mollieClient();
      const payment = input.customerId
        ? await client.customerPayments.create({ ...parameters, customerId: input.customerId })
        : await client.payments.create(parameters);
      return toProviderPayment(payment);
    },

    async getPayment(id: string): Promise<ProviderPayment | null> {
      if (!PAYMENT_ID.test(id)) return null;
      try {
        return toProviderPayment(await (await mollieClient()).payments.get(id));
      } catch (error) {
        if (await isNotFound(error)) return null;
        throw error;
      }
    },

    async cancelPayment(id: string): Promise<ProviderPayment> {
      const { MollieApiError } = await loadMollie();
      if (!PAYMENT_ID.test(id)) throw new MollieApiError('The payment id is invalid', { statusCode: 404 });
      return toProviderPayment(await (await mollieClient()).payments.cancel(id));
    },

    async createRefund(paymentId, input): Promise<ProviderRefund> {
      const { MollieApiError } = await loadMollie();
      if (!PAYMENT_ID.test(paymentId)) throw new MollieApiError('The payment id is invalid', { statusCode: 404 });
      const refund = await (await mollieClient()).paymentRefunds.create({
        paymentId,
        amount: toMollieAmount(input.amount.minor, input.amount.currency),
        description: input.description,
        idempotencyKey: input.idempotencyKey,
      });
      return { id: refund.id, paymentId, amount: fromMollieAmount(refund.amount), status: String(refund.status) };
    },

    async createCustomer(input): Promise<{ id: string }> {
      const customer = await (await mollieClient()).customers.create({
        ...(input.name ? { name: input.name } : {}),
        ...(input.email ? { email: input.email } : {}),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      });
      return { id: customer.id };
    },

    async createMandate(customerId, input): Promise<ProviderMandate> {
      const { MollieApiError } = await loadMollie();
      if (!CUSTOMER_ID.test(customerId)) throw new MollieApiError('The customer id is invalid', { statusCode: 404 });
      const mandate = await (await mollieClient()).customerMandates.create({
        customerId,
        method: input.method as Mandate['method'],
        consumerName: input.consumerName,
        consumerAccount: input.consumerAccount,
        ...(input.signatureDate ? { signatureDate: input.signatureDate } : {}),
        ...(input.mandateReference ? { mandateReference: input.mandateReference } : {}),
      });
      return toProviderMandate(mandate);
    },

    async listMandates(customerId: string): Promise<ProviderMandate[]> {
      if (!CUSTOMER_ID.test(customerId)) return [];
      try {
        const page = await (await mollieClient()).customerMandates.page({ customerId, limit: 250 });
        return page.map(toProviderMandate);
      } catch (error) {
        if (await isNotFound(error)) return [];
        throw error;
      }
    },
  };
}

/**
 * The provider of an installation without MOLLIE_API_KEY whose sandbox is off (production unless
 * PAYMENTS_SANDBOX is set): it offers no methods, so nothing can be bought, and refuses everything else.
 */
export function createUnavailableProvider(): PaymentProvider {
  const refuse = async (): Promise<never> => {
    throw new Error('payments are not configured: set MOLLIE_API_KEY (or PAYMENTS_SANDBOX=1 for the test sandbox)');
  };
  return {
    name: 'sandbox',
    listMethods: async () => [],
    createPayment: refuse,
    getPayment: async () => null,
    cancelPayment: refuse,
    createRefund: refuse,
    createCustomer: refuse,
    createMandate: refuse,
    listMandates: async () => [],
  };
}
