import { type DiscountCodeView, discountCodeSchema } from '@amora/contracts';
import { ALERT_STORAGE_KEYS, ENTRY_WARNING_STORAGE_KEY } from '@amora/contracts/core';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DefaultLayout } from '@/app/layouts/default-layout';
import { runOnPhone } from '@/testing/browser';
import { contractBody } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { answers, server } from '@/testing/server';
import { text } from '@/testing/text';

const timeBonus = () => ({
  is_visible: true,
  seconds_left: 3_600,
  discount: contractBody(discountCodeSchema, {
    code: 'TIMEBONUS25',
    country: null,
    user_id: null,
    expires: new Date(Date.now() + 3_600_000).toISOString(),
    value_percentage: 25,
    currency: null,
    minimum_order_value: 0,
    status: 'active',
    validity: 3_600,
    expired: false,
    paymentmethods: [],
    source: 'time_bonus',
  } satisfies DiscountCodeView),
});

/** A member who signed up a moment ago: address not confirmed, no photo, the time bonus running. */
const newMember = () => userFixture({ status: 'not_confirmed' }, { status: 'disabled', main_image: null });

const strip = () => screen.getByTestId('banner-strip');
const banners = () => Array.from(strip().querySelector('.banner-strip-items')?.children ?? []);
const nextButton = () => screen.queryByTestId('banner-strip-next');

beforeEach(() => {
  window.localStorage.setItem(ENTRY_WARNING_STORAGE_KEY, String(Date.now()));
  server.use(answers.timeBonus(timeBonus()));
});

describe('the banner strip', () => {
  it('on a phone shows one banner in front and the others behind it, one tap to the next', async () => {
    runOnPhone();
    const { user } = await renderInRoute(<DefaultLayout />, { path: '/likes', routeName: 'likes', user: newMember() });
    await screen.findByTestId('time-bonus-banner');
    await waitFor(() => expect(banners()).toHaveLength(3));
    expect(banners().map((b) => b.getAttribute('data-testid'))).toEqual(['time-bonus-banner', 'activation-alert', 'photo-alert']);
    expect(strip()).toHaveAttribute('data-front', '1');
    const next = await screen.findByRole('button', { name: text('nav.nextBanner', { shown: 1, total: 3 }) });
    await user.click(next);
    expect(strip()).toHaveAttribute('data-front', '2');
    await user.click(screen.getByRole('button', { name: text('nav.nextBanner', { shown: 2, total: 3 }) }));
    expect(strip()).toHaveAttribute('data-front', '3');
    await user.click(screen.getByRole('button', { name: text('nav.nextBanner', { shown: 3, total: 3 }) }));
    expect(strip()).toHaveAttribute('data-front', '1');
  });

  it('every banner can be closed, but the activation reminder, which asks the member to act', async () => {
    runOnPhone();
    const { user } = await renderInRoute(<DefaultLayout />, { path: '/likes', routeName: 'likes', user: newMember() });
    await waitFor(() => expect(banners()).toHaveLength(3));
    for (const banner of banners()) {
      const close = within(banner as HTMLElement).queryByRole('button', { name: text('common.close') });
      if (banner.getAttribute('data-testid') === 'activation-alert') {
        expect(close).toBeNull();
        expect(within(banner as HTMLElement).getByTestId('resend-activation')).toBeInTheDocument();
      } else {
        expect(close).not.toBeNull();
      }
    }
    // Closing the time bonus in front brings the next; it is remembered in storage and in the cookie the server reads.
    await user.click(within(screen.getByTestId('time-bonus-banner')).getByRole('button', { name: text('common.close') }));
    await waitFor(() => expect(banners()).toHaveLength(2));
    expect(screen.queryByTestId('time-bonus-banner')).toBeNull();
    expect(window.localStorage.getItem(ALERT_STORAGE_KEYS.timeBonusBanner)).toMatch(/^\d+$/);
    expect(document.cookie).toContain(`${ALERT_STORAGE_KEYS.timeBonusBanner}=1`);
    expect(await screen.findByRole('button', { name: text('nav.nextBanner', { shown: 1, total: 2 }) })).toBeVisible();
    await user.click(within(screen.getByTestId('photo-alert')).getByRole('button', { name: text('common.close') }));
    await waitFor(() => expect(banners()).toHaveLength(1));
    expect(nextButton()).toBeNull();
  });

  it('a member with no banner gets an empty strip and no button', async () => {
    server.use(answers.timeBonus());
    await renderInRoute(<DefaultLayout />, { path: '/likes', routeName: 'likes', user: userFixture() });
    await screen.findByTestId('banner-strip');
    expect(banners()).toHaveLength(0);
    expect(nextButton()).toBeNull();
  });
});
