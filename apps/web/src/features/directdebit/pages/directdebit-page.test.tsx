import {
  type DirectDebitStatus,
  directDebitPostResponseSchema,
  directDebitStatusSchema,
  errorSchema,
  type Order,
  packagesResponseSchema,
  startPaymentResponseSchema,
  transactionResponseSchema,
} from '@amora/contracts';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { recordCalls, server } from '@/testing/server';
import { text } from '@/testing/text';

const p = (key: string, values: Record<string, unknown> = {}) => text(key, { ns: 'payments', ...values });

function status(overrides: Partial<DirectDebitStatus> = {}): DirectDebitStatus {
  return { mandate: null, blocked: false, open: 0, limit: 2, phone_country: 'NL', ...overrides };
}

const MANDATE = { account_holder: 'Robin de Vries', iban_last4: '4300', created_at: '2026-11-20T10:00:00.000Z' };

const ORDER: Order = {
  id: 55,
  status: 'pending',
  package_id: 3,
  credits: 100,
  currency: 'EUR',
  list_price: 1999,
  discount: 0,
  fee: 0,
  amount: 1999,
  method: 'directdebit',
  recurring: true,
  created_at: '2026-11-25T10:00:00.000Z',
  paid_at: null,
  checkout_url: null,
};

const packages = () =>
  http.get('*/api/packages.php', () =>
    contractJson(packagesResponseSchema, {
      payment_country: 'NL',
      currency: 'EUR',
      credits: 10,
      paid_user: false,
      prices: { message: 10, gift: 20, photo: 15 },
      minimum_message_costs: null,
      discount: null,
      discount_error: null,
      packages: [{ id: 3, credits: 100, price: 1999, currency: 'EUR', best_value: false, discounted_price: null }],
      last_order: null,
    }),
  );

const transaction = () =>
  http.get('*/api/transactions.php', () => contractJson(transactionResponseSchema, { order: ORDER, receipt: null }));

/** GET answers `current` (changed by the handlers as the server would), POST answers per step. */
function directDebitServer(initial: DirectDebitStatus, options: { rightCode?: string } = {}) {
  let current = initial;
  const posts: Record<string, unknown>[] = [];
  server.use(
    http.get('*/api/directdebit.php', () => contractJson(directDebitStatusSchema, current)),
    http.post('*/api/directdebit.php', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      posts.push(body);
      if (body.step === 'otp') {
        if (body.otp !== (options.rightCode ?? '123456')) {
          return HttpResponse.json(errorSchema.parse({ error: 'invalid_code', message: 'Invalid code', field: 'otp' }), { status: 400 });
        }
        current = { ...current, mandate: MANDATE };
        return contractJson(directDebitPostResponseSchema, { ok: true, mandate: MANDATE });
      }
      return contractJson(directDebitPostResponseSchema, {
        verification: 41,
        phone_masked: '+31 6••••••78',
        expires_at: '2026-11-25T10:10:00.000Z',
        resend_after_seconds: 60,
      });
    }),
    packages(),
    transaction(),
  );
  return posts;
}

const member = () => ({ user: userFixture() });

describe('the direct-debit page', () => {
  it('sends a visitor to the login, and back here afterwards', async () => {
    const { router } = await renderApp('/directdebit?package=3');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/directdebit?package=3')}`);
  });

  it('groups the IBAN in fours while it is typed, says when it is valid, and checks the form before sending', async () => {
    const posts = directDebitServer(status());
    const calls = recordCalls();
    const { user } = await renderApp('/directdebit', member());
    await screen.findByTestId('directdebit-form');
    const iban = screen.getByRole('textbox', { name: p('directDebit.form.iban') });
    await user.type(iban, 'nl91abna0417164300');
    expect(iban).toHaveValue('NL91 ABNA 0417 1643 00');
    expect(screen.getByText(p('directDebit.form.ibanValid'), { exact: false })).toBeVisible();
    await user.clear(iban);
    await user.type(iban, 'NL91ABNA0417164301');
    expect(iban).toHaveAccessibleDescription(expect.stringContaining(p('directDebit.errors.iban')));
    const phone = screen.getByRole('textbox', { name: p('directDebit.form.phone') });
    await user.type(phone, '0612345678');
    expect(phone).toHaveValue('06 12345678');
    await user.click(screen.getByTestId('directdebit-send'));
    const holder = screen.getByRole('textbox', { name: p('directDebit.form.accountHolder') });
    expect(holder).toHaveAttribute('aria-invalid', 'true');
    expect(holder).toHaveAccessibleDescription(p('directDebit.errors.required'));
    expect(posts).toEqual([]);
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  });

  it('takes the member from the form through the SMS code to the payment of the package', async () => {
    const posts = directDebitServer(status());
    const payments: Record<string, unknown>[] = [];
    server.use(
      http.post('*/api/payments.php', async ({ request }) => {
        payments.push((await request.json()) as Record<string, unknown>);
        return contractJson(startPaymentResponseSchema, { order: ORDER, checkout_url: null }, { status: 201 });
      }),
    );
    const { user, router } = await renderApp('/directdebit?package=3', member());
    expect(await screen.findByTestId('directdebit-package')).toHaveTextContent(p('directDebit.package', { count: 100 }));
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.accountHolder') }), 'Robin de Vries');
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.iban') }), 'NL91ABNA0417164300');
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.street') }), 'Keizersgracht');
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.houseNumber') }), '12a');
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.zip') }), '1015 CS');
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.city') }), 'Amsterdam');
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.phone') }), '0612345678');
    await user.click(screen.getByTestId('directdebit-send'));

    const code = await screen.findByRole('textbox', { name: p('directDebit.code.label') });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveFocus();
    expect(screen.getByTestId('directdebit-code-sent')).toHaveTextContent('+31 6••••••78');
    expect(posts[0]).toEqual({
      step: 'details',
      account_holder: 'Robin de Vries',
      iban: 'NL91 ABNA 0417 1643 00',
      street: 'Keizersgracht',
      house_number: '12a',
      zip: '1015 CS',
      city: 'Amsterdam',
      phone: '06 12345678',
    });
    expect(screen.getByTestId('directdebit-resend')).toBeDisabled();

    await user.type(code, '654321');
    await user.click(screen.getByTestId('directdebit-confirm'));
    expect(await screen.findByTestId('directdebit-code-error')).toHaveTextContent('Invalid code');
    expect(code).toHaveAttribute('aria-invalid', 'true');

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByTestId('directdebit-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/55'));
    expect(payments).toEqual([{ package: 3, method: 'directdebit', request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    expect(posts.slice(1)).toEqual([
      { step: 'otp', verification: 41, otp: '654321' },
      { step: 'otp', verification: 41, otp: '123456' },
    ]);
  });

  it('shows the confirmed account when the member came for no package', async () => {
    directDebitServer(status());
    const { user } = await renderApp('/directdebit', member());
    await screen.findByTestId('directdebit-form');
    for (const [key, value] of [
      ['accountHolder', 'Robin de Vries'],
      ['iban', 'NL91ABNA0417164300'],
      ['street', 'Main'],
      ['houseNumber', '1'],
      ['zip', '1000 AA'],
      ['city', 'Amsterdam'],
      ['phone', '0612345678'],
    ]) {
      await user.type(screen.getByRole('textbox', { name: p(`directDebit.form.${key}`) }), value);
    }
    await user.click(screen.getByTestId('directdebit-send'));
    await user.type(await screen.findByRole('textbox', { name: p('directDebit.code.label') }), '123456');
    await user.click(screen.getByTestId('directdebit-confirm'));
    expect(await screen.findByTestId('directdebit-mandate')).toHaveTextContent(p('directDebit.mandate.account', { last4: '4300' }));
    expect(await screen.findByText(p('directDebit.confirmed'))).toBeVisible();
    expect(screen.getByTestId('directdebit-buy')).toHaveAttribute('href', '/credits');
    expect(screen.queryByTestId('directdebit-form')).toBeNull();
  });

  it('shows the server field errors on their fields', async () => {
    directDebitServer(status());
    server.use(
      http.post('*/api/directdebit.php', () =>
        HttpResponse.json({ error: 'validation_failed', message: 'directDebit.errors.phone', field: 'phone' }, { status: 400 }),
      ),
    );
    const { user } = await renderApp('/directdebit', member());
    await screen.findByTestId('directdebit-form');
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.accountHolder') }), 'Robin');
    await user.type(screen.getByRole('textbox', { name: p('directDebit.form.iban') }), 'NL91ABNA0417164300');
    for (const [key, value] of [
      ['street', 'Main'],
      ['houseNumber', '1'],
      ['zip', '1000'],
      ['city', 'Amsterdam'],
      ['phone', '0612345678'],
    ]) {
      await user.type(screen.getByRole('textbox', { name: p(`directDebit.form.${key}`) }), value);
    }
    await user.click(screen.getByTestId('directdebit-send'));
    const phone = screen.getByRole('textbox', { name: p('directDebit.form.phone') });
    await waitFor(() => expect(phone).toHaveAttribute('aria-invalid', 'true'));
    expect(phone).toHaveAccessibleDescription(`${p('directDebit.form.phoneHelp')} ${p('directDebit.errors.phone')}`);
  });

  it('pays with the account the member already confirmed, or lets them use another', async () => {
    directDebitServer(status({ mandate: MANDATE, open: 1 }));
    server.use(
      http.post('*/api/payments.php', () =>
        contractJson(startPaymentResponseSchema, { order: ORDER, checkout_url: null }, { status: 201 }),
      ),
    );
    const { user, router } = await renderApp('/directdebit?package=3', member());
    expect(await screen.findByTestId('directdebit-mandate')).toHaveTextContent(p('directDebit.mandate.account', { last4: '4300' }));
    await user.click(screen.getByTestId('directdebit-another'));
    expect(await screen.findByTestId('directdebit-form')).toBeVisible();
    await user.click(screen.getByTestId('directdebit-keep'));
    await user.click(await screen.findByTestId('directdebit-pay'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/55'));
  });

  it('tells a blocked member and offers other methods', async () => {
    directDebitServer(status({ blocked: true, mandate: MANDATE }));
    await renderApp('/directdebit?package=3', member());
    const alert = await screen.findByTestId('directdebit-blocked');
    expect(alert).toHaveTextContent('Your account is blocked for direct debit');
    expect(screen.getByRole('link', { name: p('directDebit.otherMethods') })).toHaveAttribute('href', '/credits/3');
    expect(screen.queryByTestId('directdebit-form')).toBeNull();
  });

  it('tells a member at the limit of open direct debits', async () => {
    directDebitServer(status({ mandate: MANDATE, open: 2, limit: 2 }));
    await renderApp('/de/directdebit', member());
    const alert = await screen.findByTestId('directdebit-limit');
    expect(alert).toHaveTextContent('Du hast das Limit von 2 Lastschriften erreicht');
    expect(screen.queryByTestId('directdebit-pay')).toBeNull();
  });

  it('turns to the limit message when the payment is refused for the limit', async () => {
    directDebitServer(status({ mandate: MANDATE }));
    server.use(
      http.post('*/api/payments.php', () => HttpResponse.json({ error: 'direct_debit_limit', message: 'limit' }, { status: 409 })),
    );
    const { user } = await renderApp('/directdebit?package=3', member());
    await user.click(await screen.findByTestId('directdebit-pay'));
    expect(await screen.findByTestId('directdebit-limit')).toHaveTextContent(p('directDebit.limit', { count: 2 }));
  });

  it('shows no photo alert above the form', async () => {
    directDebitServer(status());
    await renderApp('/directdebit', { user: userFixture({}, { main_image: null }) });
    expect(await screen.findByTestId('directdebit-form')).toBeVisible();
    expect(screen.queryByTestId('photo-alert')).toBeNull();
  });
});
