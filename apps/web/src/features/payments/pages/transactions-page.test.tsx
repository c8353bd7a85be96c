import type { Order } from '@amora/contracts';
import { screen, within } from '@testing-library/react';
import { delay, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { userFixture } from '@/testing/fixtures';
import {
  apiError,
  loadPaymentTexts,
  orderFixture,
  paymentAnswers,
  pt,
  receiptFixture,
  transactionAnswer,
  transactionsFixture,
} from '@/testing/payments';
import { renderApp } from '@/testing/render';
import { recordCalls, server } from '@/testing/server';
import { settle, useFakeClock } from '@/testing/timers';

const eur = (minor: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(minor / 100);

/** transactions.php?id=42 answering each call with the next status of `statuses` (the last one again after that). */
function answerStatuses(statuses: Order['status'][], extra: Partial<Order> = {}) {
  const calls: number[] = [];
  server.use(
    http.get('*/api/transactions.php', ({ request }) => {
      calls.push(Date.now());
      const status = statuses[Math.min(calls.length - 1, statuses.length - 1)];
      const order = orderFixture({
        status,
        ...extra,
        ...(status === 'paid' ? { paid_at: '2026-03-02T09:31:00.000Z', checkout_url: null } : {}),
      });
      expect(new URL(request.url).searchParams.get('id')).toBe('42');
      return transactionAnswer(order, status === 'paid' ? receiptFixture() : null);
    }),
  );
  return calls;
}

/** What `find` finds once the renders and calls under way have settled (findBy* would wait on the fake clock). */
async function once<T>(find: () => T): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return find();
    } catch (error) {
      if (round > 100) throw error;
      await settle();
    }
  }
}

describe('/transactions', () => {
  beforeEach(loadPaymentTexts);

  it('lists my payments and every change of my credits, with dates and amounts in my language', async () => {
    server.use(
      paymentAnswers.transactions(
        transactionsFixture({
          orders: [
            orderFixture({ status: 'paid', method: 'paypal', amount: 1734, paid_at: '2026-03-02T09:31:00.000Z', checkout_url: null }),
          ],
          movements: [
            { id: 3, delta: -10, balance_after: 110, reason: 'message', created_at: '2026-03-02T10:00:00.000Z', order_id: null },
            { id: 2, delta: 120, balance_after: 120, reason: 'purchase', created_at: '2026-03-02T09:31:00.000Z', order_id: 42 },
            { id: 1, delta: 5, balance_after: 5, reason: 'something_new', created_at: '2026-03-01T09:31:00.000Z', order_id: null },
          ],
        }),
      ),
    );
    await renderApp('/de/transactions', { user: userFixture() });
    const order = await screen.findByTestId('order-42');
    expect(order).toHaveAttribute('href', '/de/transactions/42');
    expect(order).toHaveTextContent(
      new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(17.34).replace(/\s/g, ' '),
    );
    expect(order).toHaveTextContent(pt('transactions.status.paid'));
    expect(order).toHaveTextContent('PayPal');
    expect(order).toHaveTextContent(
      new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2026-03-02T09:30:00.000Z')),
    );
    expect(screen.getByTestId('movement-3')).toHaveTextContent(pt('transactions.reasons.message'));
    expect(screen.getByTestId('movement-3')).toHaveTextContent('−10');
    expect(screen.getByTestId('movement-2')).toHaveTextContent(pt('transactions.reasons.purchase'));
    expect(screen.getByTestId('movement-2')).toHaveTextContent('+120');
    expect(screen.getByTestId('movement-1')).toHaveTextContent(pt('transactions.reasons.other'));
  });

  it('without payments says so and offers credits; an open debt is explained', async () => {
    server.use(paymentAnswers.transactions(transactionsFixture({ credit_debt: 30 })));
    await renderApp('/transactions', { user: userFixture() });
    const orders = await screen.findByTestId('orders');
    expect(within(orders).getByRole('heading', { name: pt('transactions.noPayments') })).toBeVisible();
    expect(within(orders).getByRole('link', { name: pt('transactions.buy') })).toHaveAttribute('href', '/credits');
    expect(screen.getByTestId('credit-debt')).toHaveTextContent(pt('transactions.debt', { count: 30 }));
  });
});

describe('/transactions/{id}: the result of a payment', () => {
  beforeEach(loadPaymentTexts);

  it('offers the way back to the checkout only once the order has stayed open for 10 s', async () => {
    const clock = useFakeClock();
    answerStatuses(['open']);
    await renderApp('/transactions/42', { user: userFixture() });
    await once(() => screen.getByTestId('result-pending'));
    expect(screen.queryByRole('link', { name: pt('transactions.result.continue') })).toBeNull();
    await clock.at(8_000);
    expect(screen.queryByRole('link', { name: pt('transactions.result.continue') })).toBeNull();
    await clock.at(10_000);
    expect(await once(() => screen.getByRole('link', { name: pt('transactions.result.continue') }))).toHaveAttribute(
      'href',
      'https://pay.example/checkout/tr_1',
    );
  });

  it('shows loading, then pending while it asks every 2 s, then completed with the credits, Premium and the receipt; then it stops asking', async () => {
    const clock = useFakeClock();
    const calls = answerStatuses(['open', 'pending', 'pending', 'paid']);
    await renderApp('/transactions/42', { user: userFixture() });
    const apiCalls = recordCalls();
    expect(await once(() => screen.getByTestId('result-pending'))).toHaveTextContent(pt('transactions.result.pendingTitle'));
    // Right after paying the page does not send the payer back to the checkout.
    expect(screen.queryByRole('link', { name: pt('transactions.result.continue') })).toBeNull();
    expect(calls).toHaveLength(1);
    await clock.at(2_000);
    expect(calls).toHaveLength(2);
    expect(screen.queryByRole('link', { name: pt('transactions.result.continue') })).toBeNull();
    await clock.at(6_000);
    expect(calls).toHaveLength(4);
    const paid = await once(() => screen.getByTestId('result-paid'));
    expect(paid).toHaveTextContent(pt('transactions.result.paidTitle'));
    expect(paid).toHaveTextContent(pt('transactions.result.paidText', { count: 120 }));
    expect(within(paid).getByTestId('own-premium-badge')).toBeVisible();
    const receipt = screen.getByTestId('receipt');
    expect(within(receipt).getByTestId('receipt-number')).toHaveTextContent('1-2026-000042');
    expect(within(receipt).getByTestId('receipt-company')).toHaveTextContent('Amora Media B.V.');
    expect(within(receipt).getByTestId('receipt-company')).toHaveTextContent('NL865432109B01');
    expect(receipt).toHaveTextContent(pt('transactions.receipt.discountLine', { percent: '25%' }));
    expect(receipt).toHaveTextContent(pt('transactions.receipt.feeLine', { method: 'PayPal' }));
    expect(within(receipt).getByTestId('receipt-total')).toHaveTextContent(eur(1309));
    expect(within(receipt).getByRole('button', { name: pt('transactions.receipt.print') })).toBeVisible();
    // The member is asked for again (credits and Premium everywhere); the order is not asked for any more.
    expect(apiCalls).toContain('GET /api/user.php');
    await clock.at(12_000);
    expect(calls).toHaveLength(4);
  });

  it('shows the shape of the result while the first answer is on its way', async () => {
    server.use(
      http.get('*/api/transactions.php', async () => {
        await delay(100);
        return transactionAnswer(orderFixture({ status: 'pending' }));
      }),
    );
    await renderApp('/transactions/42', { user: userFixture() });
    expect(await screen.findByRole('status', { name: pt('transactions.result.checking') })).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByTestId('result-pending')).toBeVisible();
  });

  it('a direct debit or bank transfer under way says it takes working days, not the few seconds of other methods', async () => {
    for (const [method, text] of [
      ['directdebit', 'transactions.result.pendingDirectDebit'],
      ['banktransfer', 'transactions.result.pendingBankTransfer'],
    ] as const) {
      answerStatuses(['pending'], { method });
      const view = await renderApp('/transactions/42', { user: userFixture() });
      const pending = await screen.findByTestId('result-pending');
      expect(pending).toHaveTextContent(pt(text));
      expect(pending).not.toHaveTextContent(pt('transactions.result.pendingText'));
      view.unmount();
    }
    answerStatuses(['pending'], { method: 'ideal' });
    await renderApp('/transactions/42', { user: userFixture() });
    expect(await screen.findByTestId('result-pending')).toHaveTextContent(pt('transactions.result.pendingText'));
  });

  it('a failed or cancelled payment says so and offers another method for the same package', async () => {
    for (const status of ['failed', 'canceled', 'expired'] as const) {
      answerStatuses([status]);
      const view = await renderApp('/transactions/42', { user: userFixture() });
      const failed = await screen.findByTestId('result-failed');
      expect(within(failed).getByRole('heading', { name: 'The payment has failed or been cancelled' })).toBeVisible();
      expect(within(failed).getByRole('link', { name: pt('transactions.result.otherMethod') })).toHaveAttribute('href', '/credits/2');
      expect(screen.queryByTestId('receipt')).toBeNull();
      view.unmount();
    }
  });

  it('a declined payment with a saved card offers card entry or PayPal', async () => {
    answerStatuses(['failed'], { method: 'visa', recurring: true, checkout_url: null });
    await renderApp('/transactions/42', { user: userFixture({ paid_user: true }) });
    const failed = await screen.findByTestId('result-recurring-failed');
    expect(within(failed).getByRole('link', { name: pt('transactions.result.enterCard') })).toHaveAttribute(
      'href',
      '/credits/2/creditcard',
    );
    expect(within(failed).getByRole('link', { name: pt('transactions.result.payPal') })).toHaveAttribute('href', '/credits/2/paypal');
  });

  it('a charged-back payment says so', async () => {
    answerStatuses(['charged_back']);
    await renderApp('/transactions/42', { user: userFixture({ paid_user: true }) });
    expect(await screen.findByTestId('result-charged-back')).toHaveTextContent(pt('transactions.result.chargedBackTitle'));
  });

  it('another member’s order, or one that does not exist, is not found', async () => {
    server.use(http.get('*/api/transactions.php', () => apiError(404, 'not_found')));
    await renderApp('/transactions/42', { user: userFixture() });
    expect(await screen.findByRole('heading', { name: pt('transactions.result.notFound') })).toBeVisible();
    expect(screen.getAllByRole('link', { name: pt('transactions.result.toHistory') })[0]).toHaveAttribute('href', '/transactions');
  });

  it('an id that is no number is not asked for', async () => {
    await renderApp('/transactions/abc', { user: userFixture() });
    expect(await screen.findByRole('heading', { name: pt('transactions.result.notFound') })).toBeVisible();
  });
});
