import { pricingResponseSchema } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { settingsFixture, userFixture } from '@/testing/fixtures';
import { loadPaymentTexts, packagesFixture, paymentAnswers, pricingFixture, pt } from '@/testing/payments';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

describe('/premium', () => {
  beforeEach(loadPaymentTexts);

  it('says what Premium gives and offers the packages, each leading to its checkout', async () => {
    server.use(paymentAnswers.packages());
    await renderApp('/premium', { user: userFixture() });
    expect(await screen.findByRole('heading', { level: 1, name: pt('premium.headline', { site: 'Amora' }) })).toBeVisible();
    const benefits = screen.getByTestId('premium-benefits');
    for (const key of ['photos', 'upload', 'badge', 'features']) expect(benefits).toHaveTextContent(pt(`premium.benefits.${key}`));
    expect(benefits).toHaveTextContent('25 photos instead of 3');
    expect(await screen.findByTestId('package-3')).toHaveAttribute('href', '/credits/3');
  });

  it('a Premium member is thanked and may buy more credits', async () => {
    server.use(paymentAnswers.packages(packagesFixture({ paid_user: true })));
    const { queryClient } = await renderApp('/premium', { user: userFixture({ paid_user: true }) });
    expect(await screen.findByRole('heading', { level: 1, name: pt('premium.already') })).toBeVisible();
    expect(screen.getByRole('heading', { name: pt('premium.buyCredits') })).toBeVisible();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it('a visitor reads what Premium gives and is asked to log in, which brings them back', async () => {
    await renderApp('/premium', { user: null });
    expect(await screen.findByTestId('premium-benefits')).toBeVisible();
    expect(within(screen.getByRole('main')).getByRole('link', { name: pt('premium.login') })).toHaveAttribute(
      'href',
      `/login?redirect=${encodeURIComponent('/premium')}`,
    );
  });

  it("the activation page's Get Premium card leads here", async () => {
    server.use(paymentAnswers.packages());
    const { user, queryClient } = await renderApp('/activate/done', { user: userFixture() });
    await user.click(within(await screen.findByTestId('activate-card-premium')).getByRole('link'));
    expect(await screen.findByTestId('premium-benefits')).toBeVisible();
    // The packages' call the page started ends with this test, not inside the next one.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(await screen.findByTestId('package-3')).toBeVisible();
  });
});

describe('/pricing', () => {
  beforeEach(loadPaymentTexts);

  it('shows a visitor what a message, gift and photo cost, the packages and the fee of each method', async () => {
    server.use(paymentAnswers.pricing());
    await renderApp('/pricing', { user: null });
    const costs = await screen.findByTestId('pricing-costs');
    const message = within(costs).getByRole('row', { name: new RegExp(pt('credits.costMessage')) });
    expect(message).toHaveTextContent('10');
    // 10 credits at the cheapest credit (€69.99 / 700).
    expect(message).toHaveTextContent(pt('pricing.fromPrice', { price: '€1.00' }));
    const packages = screen.getByTestId('pricing-packages');
    expect(within(packages).getAllByRole('row')).toHaveLength(5);
    expect(packages).toHaveTextContent('€34.99');
    expect(packages).toHaveTextContent(pt('credits.bestValue'));
    const fees = screen.getByTestId('pricing-fees');
    expect(within(fees).getByRole('row', { name: /PayPal/ })).toHaveTextContent('€0.35');
    expect(within(fees).getByRole('row', { name: /iDEAL/ })).toHaveTextContent(pt('pricing.noFee'));
  });

  it('shows the payment logos beside the methods, but a traffic-source visitor neither those nor a company block (spec §6)', async () => {
    server.use(paymentAnswers.pricing());
    const { unmount } = await renderApp('/pricing', { user: null });
    const fees = await screen.findByTestId('pricing-fees');
    expect(fees.querySelectorAll('img.pay-method-logo').length).toBeGreaterThan(0);
    expect(screen.getByTestId('company-block')).toBeInTheDocument();
    unmount();

    await renderApp('/pricing', { user: null, settings: settingsFixture({ is_trafficsource: true }) });
    const trafficFees = await screen.findByTestId('pricing-fees');
    expect(within(trafficFees).getByRole('row', { name: /PayPal/ })).toHaveTextContent('€0.35');
    expect(document.querySelectorAll('img[src*="/api/assets/paymentmethod/"]')).toHaveLength(0);
    expect(screen.queryByTestId('payment-logos')).toBeNull();
    expect(screen.queryByTestId('company-block')).toBeNull();
  });

  it('shows the prices of another country on request', async () => {
    const asked: (string | null)[] = [];
    server.use(
      http.get('*/api/pricing.php', ({ request }) => {
        const country = new URL(request.url).searchParams.get('country');
        asked.push(country);
        return country === 'DE'
          ? contractJson(pricingResponseSchema, pricingFixture({ payment_country: 'DE' }))
          : contractJson(pricingResponseSchema, pricingFixture());
      }),
    );
    const { user, router } = await renderApp('/pricing', { user: null });
    const select = await screen.findByRole('combobox', { name: pt('pricing.countryLabel') });
    expect(select).toHaveValue('NL');
    await user.selectOptions(select, 'DE');
    await waitFor(() => expect(asked).toEqual([null, 'DE']));
    expect(router.state.location.search).toBe('?country=DE');
    await waitFor(() => expect(select).toHaveValue('DE'));
  });

  it('says when the prices cannot be loaded', async () => {
    server.use(http.get('*/api/pricing.php', () => HttpResponse.json({ error: 'bad_request', message: 'x' }, { status: 400 })));
    await renderApp('/pricing', { user: null });
    expect(await screen.findByRole('alert')).toHaveTextContent(pt('pricing.loadError'));
  });

  it('is linked from the footer', async () => {
    server.use(paymentAnswers.pricing());
    const { user } = await renderApp('/pages/terms', { user: null });
    const footer = await screen.findByTestId('footer');
    await user.click(within(footer).getByRole('link', { name: text('credits.pricingLink') }));
    expect(await screen.findByRole('heading', { level: 1, name: pt('pricing.title') })).toBeVisible();
  });
});
