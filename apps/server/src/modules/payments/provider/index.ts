import { randomBytes } from 'node:crypto';
import type { Config } from '../../../config';
import { createMollieProvider, createUnavailableProvider, MOLLIE_API_ENDPOINT } from './mollie.provider';
import type { PaymentProvider } from './provider';
import { fetchTransport, type InProcessServer, inProcessTransport } from './transport';

export type { PaymentProvider } from './provider';

/** Where the sandbox speaks Mollie's API v2. */
export const SANDBOX_API_PATH = '/sandbox/mollie/v2';
/**
 * The sandbox's API key, made anew by each process (shaped like Mollie's test keys, `test_…`): the sandbox takes no
 * other. Only this process's adapter calls it (in process), so nobody else, who could otherwise read every
 * customer's e-mail and IBAN or have the server call any webhook URL, knows it.
 */
export const SANDBOX_API_KEY = `test_sandbox_${randomBytes(24).toString('hex')}`;

/** The app each sandbox provider sends its requests to, once that app has mounted the sandbox. */
const sandboxServers = new WeakMap<PaymentProvider, { server: InProcessServer | null }>();

/**
 * The payment provider for this installation: the Mollie adapter talking to Mollie when MOLLIE_API_KEY is set;
 * otherwise the same adapter talking to the sandbox that this server mounts (in process, see transport.ts);
 * in production without either, a provider that offers nothing (docs/operations.md, Payments).
 */
export function createPaymentProvider(config: Pick<Config, 'payments' | 'port'>): PaymentProvider {
  const { payments } = config;
  if (payments.mollieApiKey) {
    const apiEndpoint = payments.mollieApiUrl ?? MOLLIE_API_ENDPOINT;
    return createMollieProvider({
      name: 'mollie',
      apiKey: payments.mollieApiKey,
      apiEndpoint,
      // Mollie itself is https and goes through the library's own transport; a plain-http root is a local stand-in.
      ...(apiEndpoint.startsWith('http:') ? { transport: fetchTransport() } : {}),
    });
  }
  if (!payments.sandbox) return createUnavailableProvider();
  const slot: { server: InProcessServer | null } = { server: null };
  const provider = createMollieProvider({
    name: 'sandbox',
    apiKey: SANDBOX_API_KEY,
    // The host is what the sandbox builds its links on when a payment has no redirect URL: this server's own.
    apiEndpoint: `http://localhost:${config.port || 3000}${SANDBOX_API_PATH}/`,
    transport: inProcessTransport(() => slot.server),
  });
  sandboxServers.set(provider, slot);
  return provider;
}

/**
 * Called by the sandbox when an app mounts it: that app answers the sandbox provider's requests from now on.
 * Does nothing for any other provider.
 */
export function attachSandboxServer(provider: PaymentProvider, server: InProcessServer): void {
  const slot = sandboxServers.get(provider);
  if (slot) slot.server = server;
}

/** A sandbox provider that talks to a listening sandbox over HTTP (tests of the sandbox's HTTP face). */
export function createHttpSandboxProvider(baseUrl: string): PaymentProvider {
  return createMollieProvider({
    name: 'sandbox',
    apiKey: SANDBOX_API_KEY,
    apiEndpoint: `${baseUrl.replace(/\/$/, '')}${SANDBOX_API_PATH}/`,
    transport: fetchTransport(),
  });
}
