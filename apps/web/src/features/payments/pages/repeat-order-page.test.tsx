import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userFixture } from '@/testing/fixtures';
import { apiError, bodyOf, loadPaymentTexts, orderFixture, pt, startAnswer, transactionAnswer } from '@/testing/payments';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { checkoutRedirect } from '../api/payments';

describe('/credits/repeat-order', () => {
  beforeEach(loadPaymentTexts);
  let leftFor: string[];
  beforeEach(() => {
    leftFor = [];
    vi.spyOn(checkoutRedirect, 'go').mockImplementation((url) => {
      leftFor.push(url);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('repeats the last order once, in one step, and leaves for its checkout', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.post('*/api/repeat-order.php', async ({ request }) => {
        bodies.push(await bodyOf(request));
        return startAnswer(orderFixture({ checkout_url: 'https://pay.example/checkout/tr_9' }));
      }),
    );
    await renderApp('/credits/repeat-order', { user: userFixture({ paid_user: true }) });
    await waitFor(() => expect(leftFor).toEqual(['https://pay.example/checkout/tr_9']));
    expect(bodies).toHaveLength(1);
    expect(String(bodies[0].request_id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByRole('status')).toHaveTextContent(pt('checkout.redirecting'));
  });

  it('with a stored mandate goes straight to the result', async () => {
    server.use(
      http.post('*/api/repeat-order.php', () =>
        startAnswer(orderFixture({ id: 51, status: 'pending', recurring: true, checkout_url: null }), null),
      ),
      http.get('*/api/transactions.php', () =>
        transactionAnswer(orderFixture({ id: 51, status: 'pending', recurring: true, checkout_url: null })),
      ),
    );
    const { router } = await renderApp('/credits/repeat-order', { user: userFixture({ paid_user: true }) });
    expect(await screen.findByTestId('result-pending')).toBeVisible();
    expect(router.state.location.pathname).toBe('/transactions/51');
  });

  it('without a previous order says so and leads to the packages', async () => {
    server.use(http.post('*/api/repeat-order.php', () => apiError(404, 'no_previous_order')));
    await renderApp('/credits/repeat-order', { user: userFixture() });
    const none = await screen.findByTestId('no-previous-order');
    expect(within(none).getByRole('heading', { name: pt('checkout.repeat.none') })).toBeVisible();
    expect(within(none).getByRole('link', { name: pt('checkout.toPackages') })).toHaveAttribute('href', '/credits');
  });

  it('a failure can be retried with the same request id', async () => {
    const ids: unknown[] = [];
    server.use(
      http.post('*/api/repeat-order.php', async ({ request }) => {
        ids.push((await bodyOf(request)).request_id);
        return ids.length === 1 ? apiError(403, 'direct_debit_blocked') : startAnswer(orderFixture());
      }),
    );
    const { user } = await renderApp('/credits/repeat-order', { user: userFixture({ paid_user: true }) });
    const error = await screen.findByTestId('repeat-error');
    expect(error).toHaveTextContent(pt('checkout.errors.direct_debit_blocked'));
    await user.click(screen.getByRole('button', { name: pt('checkout.repeat.retry') }));
    await waitFor(() => expect(leftFor).toHaveLength(1));
    expect(ids[1]).toBe(ids[0]);
  });
});
