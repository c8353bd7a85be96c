import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { userFixture } from '@/testing/fixtures';
import { discountFixture, loadPaymentTexts, packagesFixture, paymentAnswers, pt } from '@/testing/payments';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

/** Intl's currency text (€16.99 in en-GB) with its no-break spaces as plain ones, as toHaveTextContent compares. */
const eur = (minor: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(minor / 100);

describe('/credits', () => {
  beforeEach(loadPaymentTexts);

  it('shows skeletons, then the balance, the packages with price, price per credit and the best-value mark, and what things cost', async () => {
    server.use(
      http.get('*/api/packages.php', async () => {
        await delay(50);
        return HttpResponse.json(packagesFixture());
      }),
    );
    await renderApp('/credits', { user: userFixture() });
    expect(await screen.findByRole('status', { name: pt('credits.loading') })).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(screen.getByTestId('balance')).toHaveTextContent(pt('credits.balance', { count: 10 })));
    await screen.findByTestId('package-4');
    expect(within(screen.getByTestId('packages')).getAllByRole('link')).toHaveLength(4);
    const second = screen.getByTestId('package-2');
    expect(second).toHaveAttribute('href', '/credits/2');
    expect(second).toHaveTextContent(pt('credits.packageCredits', { count: 120 }));
    expect(within(second).getByTestId('price')).toHaveTextContent(eur(1699));
    expect(second).toHaveTextContent(pt('credits.perCredit', { price: '€0.142' }));
    expect(within(screen.getByTestId('package-4')).getByTestId('best-value')).toHaveTextContent(pt('credits.bestValue'));
    expect(screen.getAllByTestId('best-value')).toHaveLength(1);
    expect(screen.queryByTestId('was-price')).toBeNull();
    expect(screen.queryByTestId('discount-note')).toBeNull();
    const costs = screen.getByTestId('costs');
    expect(costs).toHaveTextContent(`${pt('credits.costMessage')}${pt('credits.costCredits', { count: 10 })}`);
    expect(costs).toHaveTextContent(`${pt('credits.costGift')}${pt('credits.costCredits', { count: 25 })}`);
    expect(screen.queryByTestId('repeat-order')).toBeNull();
    expect(screen.queryByTestId('own-premium-badge')).toBeNull();
  });

  it('marks as best value the package really cheapest per credit at the price paid, whatever the flag says', async () => {
    const base = packagesFixture();
    server.use(
      http.get('/api/packages.php', () =>
        HttpResponse.json(
          packagesFixture({
            packages: [
              // €0.16, €0.14 (the cheapest), €0.15 a credit; the flag is on the wrong one.
              { ...base.packages[0], id: 11, credits: 50, price: 800, best_value: true },
              { ...base.packages[1], id: 12, credits: 100, price: 1400, best_value: false },
              { ...base.packages[2], id: 13, credits: 200, price: 3000, best_value: false },
            ],
          }),
        ),
      ),
    );
    await renderApp('/credits', { user: userFixture() });
    await screen.findByTestId('package-12');
    expect(within(screen.getByTestId('package-12')).getByTestId('best-value')).toHaveTextContent(pt('credits.bestValue'));
    expect(screen.getAllByTestId('best-value')).toHaveLength(1);
    expect(screen.getByTestId('package-12')).toHaveClass('is-best');
    expect(screen.getByTestId('package-11')).not.toHaveClass('is-best');
  });

  it('a package leads to its checkout', async () => {
    server.use(paymentAnswers.packages(), paymentAnswers.methods());
    const { user, router } = await renderApp('/de/credits', { user: userFixture() });
    await screen.findByTestId('package-4');
    const pkg = screen.getByTestId('package-2');
    expect(pkg).toHaveAttribute('href', '/de/credits/2');
    await user.click(pkg);
    expect(await screen.findByRole('heading', { level: 1, name: text('payments:checkout.title') })).toBeVisible();
    expect(router.state.location.pathname).toBe('/de/credits/2');
  });

  it('with an active discount strikes the list price through beside the discounted one', async () => {
    const data = packagesFixture({ discount: discountFixture() });
    data.packages = data.packages.map((p) => ({ ...p, discounted_price: Math.round(p.price * 0.75) }));
    server.use(paymentAnswers.packages(data));
    await renderApp('/credits', { user: userFixture() });
    const second = await screen.findByTestId('package-2');
    expect(within(second).getByTestId('was-price')).toHaveTextContent(eur(1699));
    expect(within(second).getByTestId('price')).toHaveTextContent(eur(1274));
    expect(screen.getByTestId('discount-note')).toHaveTextContent(pt('credits.discountActive', { percent: '25%' }));
  });

  it('a paid member sees the Premium badge and can repeat the last order in one step', async () => {
    server.use(paymentAnswers.packages(packagesFixture({ paid_user: true, credits: 3, last_order: { package_id: 3, method: 'paypal' } })));
    await renderApp('/credits', { user: userFixture({ paid_user: true, credits: 3 }) });
    const repeat = await screen.findByTestId('repeat-order');
    expect(repeat).toHaveTextContent(pt('credits.repeatText', { package: pt('credits.packageCredits', { count: 300 }), method: 'PayPal' }));
    expect(within(repeat).getByRole('link', { name: pt('credits.repeat') })).toHaveAttribute('href', '/credits/repeat-order');
    expect(screen.getByTestId('own-premium-badge')).toHaveTextContent(pt('credits.premiumBadge'));
  });

  it('says when the packages cannot be loaded and loads them again on request', async () => {
    let calls = 0;
    server.use(
      http.get('*/api/packages.php', () => {
        calls += 1;
        return calls <= 6
          ? HttpResponse.json({ error: 'internal_error', message: 'x' }, { status: 500 })
          : HttpResponse.json(packagesFixture());
      }),
    );
    const { user } = await renderApp('/credits', { user: userFixture() });
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent(pt('credits.loadError'));
    await user.click(within(alert).getByRole('button', { name: pt('credits.retry') }));
    expect(await screen.findByTestId('package-1')).toBeVisible();
  }, 20_000);

  it('an empty catalogue says so instead of an empty grid', async () => {
    server.use(paymentAnswers.packages(packagesFixture({ packages: [] })));
    await renderApp('/credits', { user: userFixture() });
    expect(await screen.findByTestId('no-packages')).toHaveTextContent(pt('credits.none'));
  });

  it('sends a visitor to the login, and back here afterwards', async () => {
    const { router } = await renderApp('/credits', { user: null });
    await screen.findByRole('heading', { name: text('login.title') });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/credits')}`);
  });
});
