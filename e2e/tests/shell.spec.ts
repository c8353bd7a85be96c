import { readFileSync } from 'node:fs';
import { expect, expectAccessible, test } from './fixtures';

const de = JSON.parse(readFileSync(new URL('../../packages/i18n/locales/de/common.json', import.meta.url), 'utf8'));
const nl = JSON.parse(readFileSync(new URL('../../packages/i18n/locales/nl/common.json', import.meta.url), 'utf8'));
const HERZ = `http://herzklopfen.localhost:${process.env.E2E_PORT ?? 4173}`;

test.describe('visitor index', () => {
  test('shows the site, the login button and the footer', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Meet singles near you' })).toBeVisible();
    await expect(page.getByTestId('login-button')).toBeVisible();
    await expect(page).toHaveTitle(/Amora/);
    const footer = page.getByTestId('footer');
    await expect(footer.getByRole('link', { name: 'Terms and conditions' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Complaints' })).toBeVisible();
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Amora`);
    await expectAccessible(page);
  });

  test('in a language other than English, the full footer: company block, payment logos, support phone', async ({ page }) => {
    await page.goto('/nl');
    await expect(page.getByRole('heading', { level: 1, name: 'Ontmoet singles bij jou in de buurt' })).toBeVisible();
    const footer = page.getByTestId('footer');
    await expect(footer.getByRole('link', { name: nl.footer.terms })).toBeVisible();
    await expect(footer.getByTestId('company-block')).toContainText('Amora Media B.V.');
    await expect(footer.getByTestId('payment-logos').locator('img')).toHaveCount(3);
    await expect(footer.getByTestId('support-phone')).toHaveText('+31201234567');
  });

  test('a traffic-source visitor sees neither payment logos nor the company block', async ({ page }) => {
    await page.goto('/nl?network=adnet&sub1=x');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('footer')).toBeVisible();
    await expect(page.getByTestId('payment-logos')).toHaveCount(0);
    await expect(page.getByTestId('company-block')).toHaveCount(0);
  });

  test("the US footer shows on English pages of a site that enables it, whatever the visitor's country", async ({ page }) => {
    for (const country of ['US', 'NL']) {
      await page.goto(`/?forced_country=${country}`);
      await expect(page.getByTestId('footer')).toHaveAttribute('data-variant', 'us');
      await expect(page.getByTestId('payment-logos')).toHaveCount(0);
      await expect(page.getByTestId('company-block')).toHaveCount(0);
      await expect(page.getByTestId('support-phone')).toHaveText('+31201234567');
    }
    await page.goto('/nl?forced_country=US');
    await expect(page.getByTestId('footer')).toHaveAttribute('data-variant', 'logged-out');
  });
});

test.describe('site-entry warning', () => {
  test.use({ firstVisit: true });

  test('asks first, and stays away once answered', async ({ page }) => {
    await page.goto('/');
    const dialog = page.getByRole('dialog', { name: 'Important information' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    await dialog.getByTestId('entry-warning-accept').click();
    await expect(dialog).toBeHidden();
    const stored = await page.evaluate(() => window.localStorage.getItem('hide-entry-warning'));
    expect(Number(stored)).toBeGreaterThan(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('cannot be closed with Escape or a click beside it, only answered', async ({ page, isMobile }) => {
    await page.goto('/');
    const dialog = page.getByRole('dialog', { name: 'Important information' });
    await expect(dialog).toBeVisible();
    // More than once: the browser lets a page refuse only one Escape per user action.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await page.mouse.click(8, 8);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('entry-warning-accept').click();
    await expect(dialog).toBeHidden();
    // Answered, it leaves the page usable: the main button opens signup.
    await page.getByTestId('cta-signup').click();
    if (isMobile) await expect(page).toHaveURL(/\/signup$/);
    else await expect(page.getByTestId('signup-modal')).toBeVisible();
  });
});

test.describe('languages', () => {
  test('switching to German changes the text, the address and the cookie', async ({ page, context }) => {
    await page.goto('/');
    await page.getByTestId('language-menu').click();
    await page.getByRole('button', { name: 'Deutsch' }).click();
    await expect(page).toHaveURL(/\/de$/);
    await expect(page.getByTestId('login-button')).toHaveText(de.nav.login);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected');
    expect(cookie?.value).toBe('de');
    expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 364 * 86_400);
    // The remembered language wins on the next unprefixed visit.
    await page.goto('/pages/terms');
    await expect(page).toHaveURL(/\/de\/pages\/terms$/);
  });

  test('a site opens in its domain language on the first visit', async ({ page }) => {
    await page.goto(`${HERZ}/`);
    await expect(page).toHaveURL(/\/de$/);
    await expect(page.getByTestId('login-button')).toHaveText(de.nav.login);
    await expect(page.getByTestId('company-block')).toContainText('Heartline Digital Ltd');
  });

  test('the language page lists every language of the site', async ({ page }) => {
    await page.goto('/lang-config');
    await expect(page.getByRole('button', { name: /Suomi/ })).toBeVisible();
    await page.getByRole('button', { name: /Nederlands/ }).click();
    await expect(page).toHaveURL(/\/nl$/);
    await expectAccessible(page);
  });
});

test.describe('content pages', () => {
  test('terms carry the version date and the company', async ({ page }) => {
    await page.goto('/pages/terms');
    await expect(page.getByRole('heading', { level: 1, name: 'Terms and conditions' })).toBeVisible();
    await expect(page.getByText('Version of 1 December 2023')).toBeVisible();
    await expect(page.getByTestId('page-terms')).toContainText('Amora Media B.V.');
    await expectAccessible(page);
  });

  test('privacy policy names the site and its support address', async ({ page }) => {
    await page.goto('/pages/privacy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
    await expect(page.getByTestId('page-privacy')).toContainText('support@amora.example');
    await expectAccessible(page);
  });

  test('the return policy uses the refund days of the site', async ({ page }) => {
    await page.goto('/pages/return-policy');
    await expect(page.getByTestId('page-returnPolicy')).toContainText('14');
  });

  test('a later company moves the terms date', async ({ page }) => {
    await page.goto(`${HERZ}/pages/terms`);
    await expect(page.getByTestId('page-terms')).toContainText(/2024/);
  });
});

test.describe('errors', () => {
  test('an unknown page shows the 404 page with the way home', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Meet singles near you' })).toBeVisible();
  });

  test('an unknown lander slug and the landing of an unknown profile answer 404 with the not-found page', async ({ page }) => {
    for (const path of ['/landers/gallery/no-such-slug', '/members/987654321/landing']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible();
    }
    const lander = await page.goto('/landers/gallery/eng');
    expect(lander?.status()).toBe(200);
    await expect(page.getByTestId('lander-gallery')).toBeVisible();
  });

  test('the 404 page is accessible', async ({ page }) => {
    await page.goto('/de/gibt-es-nicht');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('complaints', () => {
  test('the form explains what is wrong, then files the complaint', async ({ page }) => {
    await page.goto('/complaints');
    await page.getByTestId('complaint-submit').click();
    await expect(page.getByText('Enter your name (2 to 100 characters).')).toBeVisible();
    await expect(page.getByText('Invalid email')).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Your name').fill('Jamie Tester');
    await page.getByLabel('Your email address').fill('jamie@example.com');
    await page.getByLabel('What is it about?').selectOption('technical');
    await page.getByLabel('Subject').fill('Photos do not load');
    await page.getByLabel('Your complaint').fill('Since yesterday the photos on the search page stay grey for me.');
    await page.getByTestId('complaint-submit').click();
    await expect(page.getByTestId('complaint-success')).toContainText(/C-[A-Z0-9]{8}/);
  });
});

test.describe('lander layout', () => {
  test.use({ firstVisit: true });

  test('shows the entry warning only to visitors from NL and DE', async ({ page }) => {
    await page.goto('/landers/video/eng?forced_country=NL');
    await expect(page.getByTestId('lander-video')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Important information' })).toBeVisible();

    await page.goto('/landers/video/eng?forced_country=GB');
    await expect(page.getByTestId('lander-video')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
