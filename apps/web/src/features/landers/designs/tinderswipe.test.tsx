import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settingsFixture } from '@/testing/fixtures';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { TinderswipeLander } from './tinderswipe';

const profiles = landerProfiles(8);
const topName = () => within(screen.getByTestId('tinderswipe-card')).getByRole('heading').textContent;

/** A visitor who asked for less motion: a swiped card leaves at once (the animated way is the e2e's). */
beforeEach(() => {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: query.includes('reduce'), media: query, addEventListener() {}, removeEventListener() {} })),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('tinderswipe lander', () => {
  it('shows the first card with name, age, city and the fictional icon, the niche copy, and no raw key', async () => {
    const { container } = await renderLander(
      <TinderswipeLander name="tinderswipe" niche={2} profiles={profiles.slice(2)} canSignUp onSignup={vi.fn()} />,
    );
    expect(screen.getByRole('heading', { level: 1, name: text('landers:niche.2.headline') })).toBeVisible();
    const card = screen.getByTestId('tinderswipe-card');
    expect(within(card).getByRole('heading', { name: new RegExp(`${profiles[2].name}, ${profiles[2].age}`) })).toBeVisible();
    expect(within(card).getByRole('img', { name: 'fictional profile' })).toBeVisible();
    expect(card).toHaveAttribute('data-profile-id', String(profiles[2].id));
    const photo = card.querySelector('img.l-tinderswipe-photo');
    expect(photo).toHaveAttribute('fetchpriority', 'high');
    expect(photo).toHaveAttribute('width', '480');
    expect(photo).toHaveAttribute('height', '600');
    expect(container.querySelectorAll('[fetchpriority="high"]')).toHaveLength(1);
    expect(container.textContent).not.toMatch(/\b(tinderswipe|niche|home|signup|common)[.:][a-z]/);
  });

  it('opens signup at the fourth swipe, by buttons and arrow keys, about the last profile liked', async () => {
    const onSignup = vi.fn();
    const { user } = await renderLander(
      <TinderswipeLander name="tinderswipe" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />,
    );
    await user.click(screen.getByRole('button', { name: text('landers:tinderswipe.likeName', { name: profiles[0].name }) }));
    expect(await screen.findByText(text('landers:tinderswipe.liked', { name: profiles[0].name }))).toBeInTheDocument();
    expect(topName()).toContain(profiles[1].name);
    await user.click(screen.getByTestId('tinderswipe-pass'));
    screen.getByTestId('tinderswipe-stack').focus();
    await user.keyboard('{ArrowLeft}');
    expect(topName()).toContain(profiles[3].name);
    expect(onSignup).not.toHaveBeenCalled();
    await user.keyboard('{ArrowRight}');
    expect(onSignup).toHaveBeenCalledTimes(1);
    expect(onSignup).toHaveBeenCalledWith(profiles[3].id);
    // Then the stack asks to sign up to go on.
    const gate = screen.getByTestId('tinderswipe-gate');
    await user.click(within(gate).getByRole('button', { name: text('home.ctaSignup') }));
    expect(onSignup).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('tinderswipe-like')).toBeNull();
  });

  it('takes a drag past the threshold as a swipe and springs back from a short one', async () => {
    await renderLander(<TinderswipeLander name="tinderswipe" niche={1} profiles={profiles} canSignUp onSignup={vi.fn()} />);
    // A drag of `dx` px over half a second (a slow one: no flick).
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const drag = (dx: number) => {
      const card = screen.getByTestId('tinderswipe-card');
      card.setPointerCapture = () => {};
      fireEvent.pointerDown(card, { button: 0, pointerId: 1, clientX: 200, clientY: 300 });
      now += 250;
      fireEvent.pointerMove(card, { pointerId: 1, clientX: 200 + dx, clientY: 300 });
      now += 250;
      fireEvent.pointerUp(card, { pointerId: 1, clientX: 200 + dx, clientY: 300 });
    };
    drag(30);
    expect(topName()).toContain(profiles[0].name);
    drag(-160);
    expect(await screen.findByText(text('landers:tinderswipe.passed', { name: profiles[0].name }))).toBeInTheDocument();
  });

  it('offers the login instead when this visitor may not sign up, and never opens signup', async () => {
    const onSignup = vi.fn();
    const { user } = await renderLander(
      <TinderswipeLander name="tinderswipe" niche={1} profiles={profiles} canSignUp={false} onSignup={onSignup} />,
      { settings: settingsFixture({ signups: 'none' }) },
    );
    for (let i = 0; i < 4; i++) await user.click(screen.getByTestId('tinderswipe-like'));
    expect(onSignup).not.toHaveBeenCalled();
    expect(within(screen.getByTestId('tinderswipe-gate')).getByRole('link', { name: text('home.ctaLogin') })).toHaveAttribute(
      'href',
      '/login',
    );
  });
});
