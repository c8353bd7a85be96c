import { type DiscountCodeView, discountCodeSchema, type TimeBonusResponse } from '@amora/contracts';
import { ALERT_STORAGE_KEYS, ENTRY_WARNING_STORAGE_KEY, POLL, TIME_BONUS_MODAL_DELAY_MS } from '@amora/contracts/core';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCountdown, secondsUntil } from '@/shared/discounts/countdown';
import { useActiveDiscount, useTimeBonus } from '@/shared/discounts/time-bonus';
import { setSessionUser } from '@/shared/session/user';
import { contractBody } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp, renderAppHook } from '@/testing/render';
import { answers, recordCalls, server } from '@/testing/server';
import { text } from '@/testing/text';
import { settle, useFakeClock } from '@/testing/timers';
import { resetTimeBonusModal } from './time-bonus-modal';
import { WELCOME_BANNER_STORAGE_KEY } from './welcome-discount-banner';

/** The time bonus (spec §2, §4, §9): the banner with its countdown, the modal after 40 s, the welcome discount. */

function discount(overrides: Partial<DiscountCodeView> = {}): DiscountCodeView {
  return contractBody(discountCodeSchema, {
    code: 'TIMEBONUS25',
    country: null,
    user_id: null,
    expires: new Date(Date.now() + 14_400_000).toISOString(),
    value_percentage: 25,
    currency: null,
    minimum_order_value: 0,
    status: 'active',
    validity: 14_400,
    expired: false,
    paymentmethods: [],
    source: 'time_bonus',
    ...overrides,
  });
}

function bonus(secondsLeft: number): TimeBonusResponse {
  return { is_visible: true, seconds_left: secondsLeft, discount: discount({ validity: secondsLeft }) };
}

const welcome = () =>
  discount({ code: 'WELCOMEAB12CD', user_id: 7, source: 'welcome', expires: new Date(Date.now() + 60 * 3_600_000).toISOString() });

/**
 * On the fake clock: what `find` finds once the page's lazy parts and first calls are in. The fake clock stands
 * still meanwhile; the wait is bounded by real time (a cold import of a lazy page can take a while).
 */
async function once<T>(find: () => T): Promise<T> {
  const until = performance.now() + 10_000;
  for (;;) {
    try {
      return find();
    } catch (error) {
      if (performance.now() > until) throw error;
      await settle();
    }
  }
}

beforeEach(() => {
  window.localStorage.setItem(ENTRY_WARNING_STORAGE_KEY, String(Date.now()));
  resetTimeBonusModal();
});

describe('countdown', () => {
  it('shows hh:mm:ss and counts whole seconds up to the end', () => {
    expect(formatCountdown(14_400)).toBe('04:00:00');
    expect(formatCountdown(14_399)).toBe('03:59:59');
    expect(formatCountdown(61)).toBe('00:01:01');
    expect(formatCountdown(0)).toBe('00:00:00');
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 1)).toBe(10);
    expect(secondsUntil(10_000, 1_000)).toBe(9);
    expect(secondsUntil(10_000, 12_000)).toBe(0);
  });
});

describe('time-bonus banner', () => {
  it('shows the countdown in the members area, ticks every second, links to the credits and is gone at zero', async () => {
    const clock = useFakeClock();
    server.use(answers.timeBonus(bonus(3)));
    await renderApp('/likes', { user: userFixture({ credits: 10 }) });
    const banner = await once(() => screen.getByRole('region', { name: text('timeBonus.label') }));
    const link = within(banner).getByRole('link');
    expect(link).toHaveAttribute('href', '/credits');
    expect(link).toHaveTextContent(text('timeBonus.banner', { percent: 25 }));
    expect(link).toHaveTextContent(text('timeBonus.cta', { percent: 25 }));
    expect(within(banner).getByRole('timer')).toHaveTextContent('00:00:03');
    await clock.at(1_000);
    expect(within(banner).getByRole('timer')).toHaveTextContent('00:00:02');
    await clock.at(2_000);
    expect(within(banner).getByRole('timer')).toHaveTextContent('00:00:01');
    await clock.at(3_000);
    expect(screen.queryByTestId('time-bonus-banner')).toBeNull();
  });

  it('counts from the end time, so a late timer shows the right value (no drift)', async () => {
    useFakeClock();
    server.use(answers.timeBonus(bonus(100)));
    await renderApp('/likes', { user: userFixture() });
    const timer = await once(() => screen.getByRole('timer'));
    // The page was busy: the clock moved 5.5 s while no timer ran; the next tick says what is really left.
    expect(timer).toHaveTextContent('00:01:40');
    vi.setSystemTime(Date.now() + 5_500);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(timer).toHaveTextContent('00:01:34');
  });

  it('is not shown outside the members area, nor to a paid member (who is not even asked)', async () => {
    server.use(answers.timeBonus(bonus(3_600)));
    const { unmount } = await renderApp('/settings', { user: userFixture() });
    await screen.findByTestId('settings-delete');
    expect(screen.queryByTestId('time-bonus-banner')).toBeNull();
    unmount();

    const calls = recordCalls();
    await renderApp('/likes', { user: userFixture({ paid_user: true }) });
    await screen.findByTestId('banner-strip');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByTestId('time-bonus-banner')).toBeNull();
    expect(calls).not.toContain('GET /api/timebonus.php');
  });

  it('is cleared when the member becomes paid', async () => {
    const clock = useFakeClock();
    server.use(answers.timeBonus(bonus(3_600)));
    await renderApp('/likes', { user: userFixture() });
    expect(await once(() => screen.getByTestId('time-bonus-banner'))).toBeVisible();
    server.use(answers.user(userFixture({ paid_user: true, credits: 120 })));
    await clock.at(POLL.startDelayMs + POLL.intervalMs);
    expect(screen.queryByTestId('time-bonus-banner')).toBeNull();
  });
});

describe('useTimeBonus', () => {
  it('is loaded for a logged-in member and cleared to null on logout', async () => {
    server.use(answers.timeBonus(bonus(3_600)));
    const { result, queryClient } = await renderAppHook(() => useTimeBonus(), { user: userFixture() });
    await vi.waitFor(() => expect(result.current?.discount.code).toBe('TIMEBONUS25'));
    await act(async () => {
      setSessionUser(queryClient, null);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(result.current).toBeNull();
    expect(queryClient.getQueryData(['timeBonus', 7])).toBeUndefined();
  });

  it('is null for a visitor, without asking', async () => {
    const calls = recordCalls();
    const { result } = await renderAppHook(() => useTimeBonus(), { user: null });
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(result.current).toBeNull();
    expect(calls).not.toContain('GET /api/timebonus.php');
  });
});

describe('useActiveDiscount', () => {
  it('is the time bonus while there is one, and the welcome discount is not even asked for', async () => {
    server.use(answers.timeBonus(bonus(3_600)), answers.welcomeDiscount(welcome()));
    const calls = recordCalls();
    const { result } = await renderAppHook(() => useActiveDiscount(), { user: userFixture() });
    await vi.waitFor(() => expect(result.current?.code).toBe('TIMEBONUS25'));
    expect(calls).not.toContain('GET /api/discountcode.php');
  });

  it('is the welcome discount otherwise', async () => {
    server.use(answers.welcomeDiscount(welcome()));
    const { result } = await renderAppHook(() => useActiveDiscount(), { user: userFixture() });
    await vi.waitFor(() => expect(result.current?.code).toBe('WELCOMEAB12CD'));
  });

  it('is nothing when the welcome call fails: the failure is ignored (spec §8)', async () => {
    server.use(http.get('*/api/discountcode.php', () => HttpResponse.json({ error: 'internal_error', message: 'x' }, { status: 500 })));
    const { result } = await renderAppHook(() => useActiveDiscount(), { user: userFixture() });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(result.current).toBeNull();
  });
});

describe('time-bonus modal', () => {
  it('opens 40 s after entering the members area for a member with 0 credits, and a dismissal is remembered', async () => {
    const clock = useFakeClock();
    server.use(answers.timeBonus(bonus(3_600)));
    const { unmount } = await renderApp('/likes', { user: userFixture({ credits: 0 }) });
    expect(await once(() => screen.getByTestId('time-bonus-banner'))).toBeVisible();
    await clock.at(TIME_BONUS_MODAL_DELAY_MS - 1_000);
    expect(screen.queryByTestId('time-bonus-modal')).toBeNull();
    await clock.at(TIME_BONUS_MODAL_DELAY_MS);
    const modal = screen.getByRole('dialog', { name: text('timeBonus.modalTitle', { percent: 25 }) });
    expect(within(modal).getByRole('timer')).toHaveTextContent('00:59:20');
    expect(within(modal).getByRole('link', { name: text('timeBonus.modalCta', { percent: 25 }) })).toHaveAttribute('href', '/credits');
    await clock.at(TIME_BONUS_MODAL_DELAY_MS + 1_000);
    expect(within(modal).getByRole('timer')).toHaveTextContent('00:59:19');

    fireEvent.click(within(modal).getByRole('button', { name: text('timeBonus.modalDismiss') }));
    await settle();
    expect(screen.queryByTestId('time-bonus-modal')).toBeNull();
    expect(window.localStorage.getItem(ALERT_STORAGE_KEYS.timeBonus)).toMatch(/^\d+$/);
    unmount();

    // A new page load: the dismissal holds.
    resetTimeBonusModal();
    await renderApp('/likes', { user: userFixture({ credits: 0 }) });
    expect(await once(() => screen.getByTestId('time-bonus-banner'))).toBeVisible();
    await clock.at(2 * TIME_BONUS_MODAL_DELAY_MS + 2_000);
    expect(screen.queryByTestId('time-bonus-modal')).toBeNull();
  });

  it('counts the 40 s from entering the members area, not from the page load', async () => {
    const clock = useFakeClock();
    server.use(answers.timeBonus(bonus(3_600)));
    const { router } = await renderApp('/settings', { user: userFixture({ credits: 0 }) });
    await clock.at(30_000);
    await act(() => router.navigate('/likes'));
    await clock.at(30_000 + TIME_BONUS_MODAL_DELAY_MS - 1_000);
    expect(screen.queryByTestId('time-bonus-modal')).toBeNull();
    await clock.at(30_000 + TIME_BONUS_MODAL_DELAY_MS);
    expect(screen.getByTestId('time-bonus-modal')).toBeVisible();
  });

  it('waits while another dialog is open (the match modal of the auto-like) and opens once it is closed', async () => {
    const clock = useFakeClock();
    server.use(answers.timeBonus(bonus(3_600)));
    await renderApp('/likes', { user: userFixture({ credits: 0 }) });
    expect(await once(() => screen.getByTestId('time-bonus-banner'))).toBeVisible();
    const other = document.createElement('dialog');
    document.body.append(other);
    other.setAttribute('open', '');
    await clock.at(TIME_BONUS_MODAL_DELAY_MS + 5_000);
    expect(screen.queryByTestId('time-bonus-modal')).toBeNull();
    other.removeAttribute('open');
    await clock.at(TIME_BONUS_MODAL_DELAY_MS + 5_500);
    expect(screen.getByTestId('time-bonus-modal')).toBeVisible();
    other.remove();
  });

  it('does not open for a member with credits, nor once dismissed before', async () => {
    const clock = useFakeClock();
    server.use(answers.timeBonus(bonus(3_600)));
    const { unmount } = await renderApp('/likes', { user: userFixture({ credits: 5 }) });
    await clock.at(TIME_BONUS_MODAL_DELAY_MS + 1_000);
    expect(screen.getByTestId('time-bonus-banner')).toBeVisible();
    expect(screen.queryByTestId('time-bonus-modal')).toBeNull();
    unmount();

    resetTimeBonusModal();
    window.localStorage.setItem(ALERT_STORAGE_KEYS.timeBonus, String(Date.now()));
    await renderApp('/likes', { user: userFixture({ credits: 0 }) });
    await clock.at(2 * TIME_BONUS_MODAL_DELAY_MS + 2_000);
    expect(screen.queryByTestId('time-bonus-modal')).toBeNull();
  });
});

describe('welcome-discount banner', () => {
  it('shows the welcome discount once there is no time bonus, until dismissed', async () => {
    server.use(answers.welcomeDiscount(welcome()));
    const { user, unmount } = await renderApp('/likes', { user: userFixture() });
    const banner = await screen.findByRole('region', { name: text('timeBonus.welcomeLabel') });
    expect(within(banner).getByText(text('timeBonus.welcome', { percent: 25 }))).toBeVisible();
    expect(within(banner).getByRole('link', { name: text('timeBonus.welcomeCta') })).toHaveAttribute('href', '/credits');
    await user.click(within(banner).getByRole('button', { name: text('common.close') }));
    expect(screen.queryByTestId('welcome-discount-banner')).toBeNull();
    expect(window.localStorage.getItem(WELCOME_BANNER_STORAGE_KEY)).toMatch(/^\d+$/);
    unmount();
    await renderApp('/likes', { user: userFixture() });
    await screen.findByTestId('banner-strip');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByTestId('welcome-discount-banner')).toBeNull();
  });

  it('is not shown while the time bonus runs', async () => {
    server.use(answers.timeBonus(bonus(3_600)), answers.welcomeDiscount(welcome()));
    await renderApp('/likes', { user: userFixture() });
    await screen.findByTestId('time-bonus-banner');
    expect(screen.queryByTestId('welcome-discount-banner')).toBeNull();
  });
});
