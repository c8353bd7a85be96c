import type { FastifyInstance } from 'fastify';
import { attachSandboxServer, SANDBOX_API_PATH } from '../provider';
import { sandboxApiRoutes } from './sandbox-api.routes';
import { sandboxPageRoutes } from './sandbox-pages.routes';

/**
 * The payment sandbox: Mollie's API v2 (the part the adapter uses) at /sandbox/mollie/v2, the hosted test
 * checkout at /sandbox/checkout/:id and the dashboard at /sandbox, its state in the sandbox_* tables so it
 * survives restarts and works across processes. Mounted by app.ts only when config.payments.sandbox is on (no
 * MOLLIE_API_KEY; in production only with PAYMENTS_SANDBOX). This app answers the sandbox provider's requests
 * in process from now on (provider/transport.ts).
 */
export async function sandboxRoutes(app: FastifyInstance): Promise<void> {
  await app.register(sandboxApiRoutes, { prefix: SANDBOX_API_PATH });
  await app.register(sandboxPageRoutes);
  attachSandboxServer(app.ctx.payments, app);
}
