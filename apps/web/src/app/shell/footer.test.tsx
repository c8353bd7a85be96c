import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DefaultLayout } from '@/app/layouts/default-layout';
import { runAsInstalledApp } from '@/testing/browser';
import { settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp, renderInRoute } from '@/testing/render';
import { text } from '@/testing/text';
import { Footer, type FooterMode } from './footer';

/** The links of spec §2. */
const LINKS = [
  ['footer.terms', '/pages/terms'],
  ['footer.privacy', '/pages/privacy'],
  ['footer.cookies', '/pages/cookies'],
  ['footer.ban', '/pages/ban'],
  ['credits.pricingLink', '/pricing'],
  ['footer.complaints', '/complaints'],
  ['footer.returnPolicy', '/pages/return-policy'],
  ['footer.faq', '/pages/faq'],
  ['footer.support', '/pages/service'],
] as const;

const footer = () => screen.getByTestId('footer');
const paymentLogos = () => screen.queryByTestId('payment-logos');
const companyBlock = () => screen.queryByTestId('company-block');
const year = new Date().getFullYear();
/** "Label: value", whatever space the language puts around its colon (French: a narrow space before it). */
const literally = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const labelled = (key: string, value: string) => expect.stringMatching(new RegExp(`^${literally(text(key))}\\s*:\\s*${literally(value)}$`));

/** The lines of an address block as a member reads them (its text between line breaks). */
function addressLines(block: HTMLElement): string[] {
  const lines = [''];
  for (const node of block.childNodes) {
    if (node.nodeName === 'BR') lines.push('');
    else lines[lines.length - 1] += node.textContent;
  }
  return lines;
}

function expectLinksAndCopyright(): void {
  const nav = within(footer()).getByRole('navigation', { name: text('footer.navLabel') });
  for (const [key, href] of LINKS) expect(within(nav).getByRole('link', { name: text(key) })).toHaveAttribute('href', href);
  expect(footer()).toHaveTextContent(text('footer.copyright', { year, site: 'Amora' }));
}

function expectBusinessBlock(): void {
  expect(
    within(paymentLogos() as HTMLElement)
      .getAllByRole('img')
      .map((img) => [img.getAttribute('alt'), img.getAttribute('src')]),
  ).toEqual([
    [text('footer.payment.mastercard'), '/api/assets/paymentmethod/mastercard.svg'],
    [text('footer.payment.visa'), '/api/assets/paymentmethod/visa.svg'],
    [text('footer.payment.applepay'), '/api/assets/paymentmethod/applepay.svg'],
  ]);
  expect(companyBlock()).toBeInTheDocument();
}

describe('footer variants in the default layout (spec §2)', () => {
  it('logged out: links, support, company block, payment logos, copyright', async () => {
    await renderInRoute(<DefaultLayout />, { routeName: 'index' });
    expect(footer()).toHaveAttribute('data-variant', 'logged-out');
    expectLinksAndCopyright();
    expect(within(footer()).getByRole('link', { name: 'support@amora.example' })).toHaveAttribute('href', 'mailto:support@amora.example');
    expectBusinessBlock();
  });

  it('logged in: the same footer', async () => {
    await renderInRoute(<DefaultLayout />, { routeName: 'index', user: userFixture() });
    expect(footer()).toHaveAttribute('data-variant', 'logged-in');
    expectLinksAndCopyright();
    expect(screen.getByTestId('support-phone')).toBeInTheDocument();
    expectBusinessBlock();
  });

  it('installed app: links and copyright only', async () => {
    runAsInstalledApp();
    await renderInRoute(<DefaultLayout />, { routeName: 'index', user: userFixture() });
    expect(footer()).toHaveAttribute('data-variant', 'installed-app');
    expectLinksAndCopyright();
    expect(screen.queryByTestId('support-phone')).toBeNull();
    expect(paymentLogos()).toBeNull();
    expect(companyBlock()).toBeNull();
  });
});

describe('footer variants in the lander layout (spec §2: lander layout has the footer)', () => {
  it.each([
    ['logged-out', {}],
    ['logged-in', { user: userFixture() }],
  ] as const)('%s', async (variant, answers) => {
    await renderApp('/landers/video', answers);
    expect(await screen.findByTestId('footer')).toHaveAttribute('data-variant', variant);
  });

  it('installed app: links and copyright only', async () => {
    runAsInstalledApp();
    await renderApp('/landers/video');
    expect(await screen.findByTestId('footer')).toHaveAttribute('data-variant', 'installed-app');
    expect(paymentLogos()).toBeNull();
    expect(companyBlock()).toBeNull();
  });
});

describe('US footer (spec §2: English only, when enabled)', () => {
  const us = settingsFixture({ enable_us_footer: true, geoip_country: 'US' });

  it('shows on an English page of a site that enables it: no payment logos, no company, an adults statement, the support phone', async () => {
    await renderInRoute(<Footer />, { path: '/pages/terms', settings: { ...us, support_phone: '+31 20-123 4567' } });
    expect(footer()).toHaveAttribute('data-variant', 'us');
    expect(paymentLogos()).toBeNull();
    expect(companyBlock()).toBeNull();
    // The support phone is not one of what §2 hides from the US footer: the site's one number, dialable from anywhere.
    expect(screen.getByTestId('support-phone')).toHaveAttribute('href', 'tel:+31201234567');
    expect(footer()).toHaveTextContent(text('footer.usStatement', { site: 'Amora' }));
    expectLinksAndCopyright();
  });

  it.each(['/de/pages/terms', '/nl/pages/terms'])('does not show on %s, in another language', async (path) => {
    await renderInRoute(<Footer />, { path, settings: us });
    expect(footer()).toHaveAttribute('data-variant', 'logged-out');
    expect(paymentLogos()).toBeInTheDocument();
    expect(companyBlock()).toBeInTheDocument();
  });

  it('does not show when the site does not enable it', async () => {
    await renderInRoute(<Footer />, { settings: settingsFixture({ enable_us_footer: false, geoip_country: 'US' }) });
    expect(footer()).toHaveAttribute('data-variant', 'logged-out');
    expectBusinessBlock();
  });

  it.each(['GB', 'NL', null])(
    "shows on English pages whatever the visitor's country (%s): the spec asks only English and enabled",
    async (country) => {
      await renderInRoute(<Footer />, { settings: settingsFixture({ enable_us_footer: true, geoip_country: country }) });
      expect(footer()).toHaveAttribute('data-variant', 'us');
      expect(paymentLogos()).toBeNull();
      expect(companyBlock()).toBeNull();
    },
  );
});

describe('traffic-source visitors (spec §2, §6)', () => {
  it.each<FooterMode>(['logged-out', 'logged-in'])('see neither payment logos nor company info (%s)', async (mode) => {
    await renderInRoute(<Footer mode={mode} />, { settings: settingsFixture({ is_trafficsource: true }) });
    expect(paymentLogos()).toBeNull();
    expect(companyBlock()).toBeNull();
    expectLinksAndCopyright();
    expect(screen.getByTestId('support-phone')).toBeInTheDocument();
  });
});

describe('company address block by company id (spec §2: 1, 5 and 6)', () => {
  it('company 1: name, street, city and country, trade register and VAT numbers', async () => {
    await renderInRoute(<Footer />, { settings: settingsFixture({ company_id: 1 }) });
    const block = companyBlock() as HTMLElement;
    expect(within(block).getByText('Amora Media B.V.').tagName).toBe('STRONG');
    expect(addressLines(block)).toEqual([
      'Amora Media B.V.',
      'Herengracht 182',
      '1016 BR Amsterdam, Netherlands',
      labelled('footer.kvk', '90123456'),
      labelled('footer.vat', 'NL865432109B01'),
    ]);
  });

  it('company 5: name, one address line, VAT numbers and trading names, without a chamber number', async () => {
    const settings = settingsFixture({
      company_id: 5,
      company_name: 'Heartline Digital Ltd',
      company_address: '14 Fitzwilliam Square',
      company_city: 'Dublin 2, D02 X285',
      company_country: 'IE',
      company_kvk: '712345',
      company_vat_numbers: ['IE3456789LH'],
      company_tradenames: ['Herzklopfen', 'Heartline'],
    });
    await renderInRoute(<Footer />, { settings });
    const block = companyBlock() as HTMLElement;
    expect(addressLines(block)).toEqual([
      'Heartline Digital Ltd',
      '14 Fitzwilliam Square, Dublin 2, D02 X285, Ireland',
      labelled('footer.vat', 'IE3456789LH'),
      text('footer.tradenames', { names: 'Herzklopfen, Heartline' }),
    ]);
  });

  it('company 6: "operated by" with the site name, one address line and VAT numbers', async () => {
    const settings = settingsFixture({
      company_id: 6,
      company_name: 'Nordlys Interactive AB',
      company_address: 'Sveavägen 44',
      company_city: '111 34 Stockholm',
      company_country: 'SE',
      company_vat_numbers: ['SE559912345601'],
    });
    await renderInRoute(<Footer />, { settings });
    const block = companyBlock() as HTMLElement;
    expect(addressLines(block)).toEqual([
      text('footer.operatedBy', { site: 'Amora', company: 'Nordlys Interactive AB' }),
      'Sveavägen 44, 111 34 Stockholm, Sweden',
      labelled('footer.vat', 'SE559912345601'),
    ]);
  });

  it('the country name follows the page language', async () => {
    await renderInRoute(<Footer />, { path: '/de/pages/terms', settings: settingsFixture({ company_id: 1 }) });
    expect(companyBlock()).toHaveTextContent('1016 BR Amsterdam, Niederlande');
  });
});

describe('support phone (spec §2: dashes and spaces stripped)', () => {
  it.each([
    ['+31 20-123 4567', '+31201234567'],
    ['+353 1 555-0147', '+35315550147'],
    ['0800-123 45', '080012345'],
  ])('%s is shown and dialled as %s', async (phone, dialable) => {
    await renderInRoute(<Footer />, { settings: settingsFixture({ support_phone: phone }) });
    const link = screen.getByTestId('support-phone');
    expect(link.textContent).toBe(dialable);
    expect(link).toHaveAttribute('href', `tel:${dialable}`);
  });
});
