import { discountCodeResponseSchema, paymentMethodsResponseSchema } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import {
  apiError,
  bodyOf,
  discountFixture,
  loadPaymentTexts,
  methodsFixture,
  orderFixture,
  packagesFixture,
  paymentAnswers,
  pt,
  startAnswer,
} from '@/testing/payments';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { checkoutRedirect } from '../api/payments';

const eur = (minor: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(minor / 100);
const method = (name: string) => screen.getByTestId(`method-${name}`);
const payButton = () => screen.getByTestId('pay-button');

describe('/credits/{id}/{paymentmethod?}', () => {
  beforeEach(loadPaymentTexts);
  let leftFor: string[];
  beforeEach(() => {
    leftFor = [];
    vi.spyOn(checkoutRedirect, 'go').mockImplementation((url) => {
      leftFor.push(url);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('lists only the methods the API offers, with logo and fee; choosing one puts it in the address; Pay starts the order and leaves for the checkout', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      paymentAnswers.packages(),
      paymentAnswers.methods(),
      http.post('*/api/payments.php', async ({ request }) => {
        bodies.push(await bodyOf(request));
        return startAnswer(orderFixture({ method: 'paypal', amount: 1734, fee: 35 }));
      }),
    );
    const { user, router } = await renderApp('/credits/2', { user: userFixture() });
    const methods = await screen.findByTestId('methods');
    expect(within(methods).getAllByRole('radio')).toHaveLength(3);
    expect(method('paypal')).toHaveTextContent(pt('checkout.fee', { fee: eur(35) }));
    expect(method('ideal')).toHaveTextContent(pt('checkout.noFee'));
    expect(method('directdebit')).toHaveTextContent(pt('checkout.methods.directdebit'));
    expect(method('paypal').querySelector('img')).toHaveAttribute('src', '/api/assets/paymentmethod/paypal.svg');
    expect(payButton()).toBeDisabled();
    expect(payButton()).toHaveTextContent(pt('checkout.chooseMethod'));
    expect(screen.getByTestId('chosen-package')).toHaveTextContent(pt('credits.packageCredits', { count: 120 }));

    await user.click(within(method('paypal')).getByRole('radio'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/credits/2/paypal'));
    expect(screen.getByTestId('summary-fee')).toHaveTextContent(eur(35));
    expect(screen.getByTestId('summary-total')).toHaveTextContent(eur(1734));
    expect(payButton()).toHaveTextContent(pt('checkout.pay', { amount: eur(1734) }));
    await user.click(payButton());
    await waitFor(() => expect(leftFor).toEqual(['https://pay.example/checkout/tr_1']));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ package: 2, method: 'paypal' });
    expect(bodies[0].request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(bodies[0]).not.toHaveProperty('discountcode');
  });

  it('preselects the method in the address; a retry after a failure sends the same request id, another method a new one', async () => {
    const ids: string[] = [];
    server.use(
      paymentAnswers.packages(),
      paymentAnswers.methods(),
      http.post('*/api/payments.php', async ({ request }) => {
        const body = await bodyOf(request);
        ids.push(String(body.request_id));
        if (ids.length === 1) return apiError(503, 'payment_provider_unavailable');
        if (body.method === 'ideal') return apiError(422, 'method_unavailable');
        return startAnswer(orderFixture());
      }),
    );
    const { user } = await renderApp('/credits/2/paypal', { user: userFixture() });
    await screen.findByTestId('methods');
    expect(within(method('paypal')).getByRole('radio')).toBeChecked();
    await user.click(payButton());
    expect(await screen.findByTestId('pay-error')).toHaveTextContent(pt('checkout.errors.payment_provider_unavailable'));
    await user.click(payButton());
    await waitFor(() => expect(leftFor).toHaveLength(1));
    expect(ids[1]).toBe(ids[0]);

    await user.click(within(method('ideal')).getByRole('radio'));
    await user.click(payButton());
    expect(await screen.findByTestId('pay-error')).toHaveTextContent(pt('checkout.errors.method_unavailable'));
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('a payment without checkout (a stored mandate) goes straight to its result', async () => {
    server.use(
      paymentAnswers.packages(),
      paymentAnswers.methods(),
      http.post('*/api/payments.php', () =>
        startAnswer(orderFixture({ id: 77, status: 'pending', recurring: true, checkout_url: null }), null),
      ),
      http.get('*/api/transactions.php', () => apiError(404, 'not_found')),
    );
    const { user, router, queryClient } = await renderApp('/credits/2/ideal', { user: userFixture() });
    await screen.findByTestId('methods');
    await user.click(payButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/77'));
    // The result page has asked for the order (answered here as not found) before the test ends.
    expect(await screen.findByRole('heading', { name: pt('transactions.result.notFound') })).toBeVisible();
    expect(leftFor).toEqual([]);
    // A page mounted again while its texts loaded asks once more: that call is answered here too, not by the next test.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it('back from the checkout to a page the browser kept, Pay can be pressed again and sends the same choice', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      paymentAnswers.packages(),
      paymentAnswers.methods(),
      http.post('*/api/payments.php', async ({ request }) => {
        bodies.push(await bodyOf(request));
        return startAnswer(orderFixture({ method: 'ideal' }));
      }),
    );
    const { user } = await renderApp('/credits/2/ideal', { user: userFixture() });
    await screen.findByTestId('methods');
    await user.click(payButton());
    await waitFor(() => expect(leftFor).toHaveLength(1));
    expect(payButton()).toBeDisabled();
    const shown = new Event('pageshow');
    Object.defineProperty(shown, 'persisted', { value: true });
    window.dispatchEvent(shown);
    await waitFor(() => expect(payButton()).toBeEnabled());
    await user.click(payButton());
    await waitFor(() => expect(leftFor).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ package: 2, method: 'ideal' });
  });

  it('a discount held by an unfinished payment of the member says so and offers to continue that payment', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      paymentAnswers.packages(),
      paymentAnswers.methods(),
      http.post('*/api/payments.php', async ({ request }) => {
        bodies.push(await bodyOf(request));
        return apiError(409, 'discount_reserved', { order_id: 41, checkout_url: 'https://pay.example/checkout/tr_41' });
      }),
    );
    const { user } = await renderApp('/credits/2/paypal', { user: userFixture() });
    await screen.findByTestId('methods');
    await user.click(payButton());
    const error = await screen.findByTestId('pay-error');
    expect(error).toHaveTextContent(pt('checkout.errors.discount_reserved'));
    expect(error).not.toHaveTextContent(pt('checkout.errors.discount_used'));
    const go = within(error).getByRole('link', { name: pt('checkout.continueHeld') });
    expect(go).toHaveAttribute('href', 'https://pay.example/checkout/tr_41');
    await user.click(go);
    expect(leftFor).toEqual(['https://pay.example/checkout/tr_41']);
    expect(bodies).toHaveLength(1);
  });

  it("without its checkout address, continuing the held payment goes to that order's page", async () => {
    server.use(
      paymentAnswers.packages(),
      paymentAnswers.methods(),
      http.post('*/api/payments.php', () => apiError(409, 'discount_reserved', { order_id: 41, checkout_url: null })),
      http.get('*/api/transactions.php', () => apiError(404, 'not_found')),
    );
    const { user, router, queryClient } = await renderApp('/credits/2/paypal', { user: userFixture() });
    await screen.findByTestId('methods');
    await user.click(payButton());
    const error = await screen.findByTestId('pay-error');
    await user.click(within(error).getByRole('link', { name: pt('checkout.continueHeld') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/41'));
    expect(await screen.findByRole('heading', { name: pt('transactions.result.notFound') })).toBeVisible();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(leftFor).toEqual([]);
  });

  it('direct debit without a mandate leads to the direct-debit form for this package', async () => {
    // The form's own calls are its feature's business.
    server.use(
      paymentAnswers.packages(),
      paymentAnswers.methods(),
      http.get('*/api/directdebit*', () => apiError(404, 'not_found')),
    );
    const { user, router } = await renderApp('/credits/2/directdebit', { user: userFixture() });
    await screen.findByTestId('methods');
    expect(method('directdebit')).toHaveTextContent(pt('checkout.mandateNeeded'));
    expect(payButton()).toHaveTextContent(pt('checkout.payWith', { method: pt('checkout.methods.directdebit') }));
    await user.click(payButton());
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/directdebit?package=2'));
    // The form's page is on screen (and has made its calls) before the test ends.
    await waitFor(() => expect(screen.queryByTestId('methods')).toBeNull());
  });

  it('a blocked member is told in the spec words', async () => {
    server.use(
      paymentAnswers.packages(),
      paymentAnswers.methods(
        methodsFixture({ methods: [{ name: 'directdebit', fee: 0, amount: 1699, currency: 'EUR', needs_mandate: false }] }),
      ),
      http.post('*/api/payments.php', () => apiError(403, 'direct_debit_blocked')),
    );
    const { user } = await renderApp('/credits/2', { user: userFixture() });
    // The only method is chosen already.
    await waitFor(() => expect(within(method('directdebit')).getByRole('radio')).toBeChecked());
    await user.click(payButton());
    expect(await screen.findByTestId('pay-error')).toHaveTextContent('Your account is blocked for direct debit');
  });

  const refusals = [
    'discount_not_found',
    'discount_used',
    'discount_minimum',
    'discount_country',
    'discount_method',
    'discount_expired',
  ] as const;
  for (const code of refusals) {
    it(`a discount code refused as ${code} says why under the field`, async () => {
      server.use(
        paymentAnswers.packages(),
        paymentAnswers.methods(),
        http.get('*/api/discountcode.php', () => apiError(422, code)),
      );
      const { user } = await renderApp('/credits/2/ideal', { user: userFixture() });
      const field = await screen.findByRole('textbox', { name: pt('checkout.code') });
      await user.type(field, 'NOPE');
      await user.click(screen.getByRole('button', { name: pt('checkout.apply') }));
      expect(await screen.findByText(pt(`checkout.errors.${code}`))).toBeVisible();
      expect(field).toHaveAttribute('aria-invalid', 'true');
    });
  }

  it('a valid code is checked against package and method, then priced into the methods and sent with the order', async () => {
    const checked: string[] = [];
    const priced: string[] = [];
    const bodies: Record<string, unknown>[] = [];
    server.use(
      paymentAnswers.packages(),
      http.get('*/api/paymentmethods.php', ({ request }) => {
        const code = new URL(request.url).searchParams.get('discountcode') ?? '';
        priced.push(code);
        const off = code ? 170 : 0;
        return contractJson(
          paymentMethodsResponseSchema,
          methodsFixture({
            methods: [
              { name: 'ideal', fee: 0, amount: 1699 - off, currency: 'EUR', needs_mandate: false },
              { name: 'paypal', fee: 35, amount: 1734 - off, currency: 'EUR', needs_mandate: false },
            ],
          }),
        );
      }),
      http.get('*/api/discountcode.php', ({ request }) => {
        checked.push(new URL(request.url).search);
        return contractJson(discountCodeResponseSchema, {
          discount: discountFixture({ code: 'SPRING10', value_percentage: 10, source: 'code' }),
        });
      }),
      http.post('*/api/payments.php', async ({ request }) => {
        bodies.push(await bodyOf(request));
        return startAnswer(orderFixture());
      }),
    );
    const { user } = await renderApp('/credits/2/ideal', { user: userFixture() });
    await user.type(await screen.findByRole('textbox', { name: pt('checkout.code') }), 'spring10');
    await user.click(screen.getByRole('button', { name: pt('checkout.apply') }));
    expect(await screen.findByTestId('code-applied')).toHaveTextContent(pt('checkout.codeApplied', { code: 'SPRING10', percent: '10%' }));
    expect(checked).toEqual(['?code=spring10&package=2&method=ideal']);
    await waitFor(() => expect(screen.getByTestId('summary-total')).toHaveTextContent(eur(1529)));
    expect(priced).toEqual(['', 'SPRING10']);
    expect(screen.getByTestId('summary-discount')).toHaveTextContent(eur(170));
    await user.click(payButton());
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ package: 2, method: 'ideal', discountcode: 'SPRING10' });
  });

  it('the active discount (time bonus) is applied from the start and can be removed', async () => {
    const data = packagesFixture({ discount: discountFixture() });
    data.packages = data.packages.map((p) => ({ ...p, discounted_price: Math.round(p.price * 0.75) }));
    const priced: string[] = [];
    server.use(
      paymentAnswers.packages(data),
      http.get('*/api/paymentmethods.php', ({ request }) => {
        priced.push(new URL(request.url).searchParams.get('discountcode') ?? '');
        return contractJson(paymentMethodsResponseSchema, methodsFixture());
      }),
    );
    const { user } = await renderApp('/credits/2', { user: userFixture() });
    const applied = await screen.findByTestId('code-applied');
    expect(applied).toHaveTextContent(pt('checkout.codeApplied', { code: 'TIMEBONUS25', percent: '25%' }));
    await user.click(within(applied).getByRole('button', { name: pt('checkout.removeCode') }));
    await waitFor(() => expect(priced).toEqual(['TIMEBONUS25', '']));
    expect(screen.getByRole('textbox', { name: pt('checkout.code') })).toBeVisible();
  });

  it('a package that does not exist says so and leads to the packages', async () => {
    server.use(paymentAnswers.packages());
    await renderApp('/credits/99', { user: userFixture() });
    const empty = await screen.findByTestId('package-not-found');
    expect(empty).toHaveTextContent(pt('checkout.notFound'));
    expect(within(empty).getByRole('link', { name: pt('checkout.toPackages') })).toHaveAttribute('href', '/credits');
  });

  it('a method in the address that is not offered chooses nothing', async () => {
    server.use(paymentAnswers.packages(), paymentAnswers.methods());
    await renderApp('/credits/2/sofort', { user: userFixture() });
    const methods = await screen.findByTestId('methods');
    expect(
      within(methods)
        .getAllByRole('radio')
        .filter((r) => (r as HTMLInputElement).checked),
    ).toHaveLength(0);
    expect(payButton()).toBeDisabled();
  });

  it('no method available says so', async () => {
    server.use(paymentAnswers.packages(), paymentAnswers.methods(methodsFixture({ methods: [] })));
    await renderApp('/credits/2', { user: userFixture() });
    expect(await screen.findByTestId('no-methods')).toHaveTextContent(pt('checkout.noMethods'));
  });
});
