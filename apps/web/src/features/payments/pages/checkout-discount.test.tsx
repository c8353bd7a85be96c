import { paymentMethodsResponseSchema } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { discountFixture, loadPaymentTexts, methodsFixture, packagesFixture, paymentAnswers, pt } from '@/testing/payments';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';

describe('/credits/{id}: the active discount after Remove', () => {
  beforeEach(loadPaymentTexts);

  it('says that the active discount still applies (the server prices it in without a code) until another code replaces it', async () => {
    const data = packagesFixture({ discount: discountFixture() });
    data.packages = data.packages.map((p) => ({ ...p, discounted_price: Math.round(p.price * 0.75) }));
    server.use(
      paymentAnswers.packages(data),
      http.get('*/api/paymentmethods.php', () => contractJson(paymentMethodsResponseSchema, methodsFixture())),
    );
    const { user } = await renderApp('/credits/2', { user: userFixture() });
    const applied = await screen.findByTestId('code-applied');
    await user.click(within(applied).getByRole('button', { name: pt('checkout.removeCode') }));
    const form = await screen.findByTestId('discount-form');
    await waitFor(() => expect(form).toHaveTextContent(pt('checkout.activeStays', { code: 'TIMEBONUS25' })));
    expect(form).not.toHaveTextContent(pt('checkout.codeHelp'));
  });

  it('without an active discount the field just asks for a code', async () => {
    server.use(paymentAnswers.packages(), paymentAnswers.methods());
    await renderApp('/credits/2', { user: userFixture() });
    const form = await screen.findByTestId('discount-form');
    expect(form).toHaveTextContent(pt('checkout.codeHelp'));
  });
});
