import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { TransitionsvideolandingLander } from './transitionsvideolanding';

const profiles = landerProfiles(5);

/** The browser's answer to prefers-reduced-motion. */
function prefersReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query.includes('prefers-reduced-motion') ? reduce : false,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

const caption = () => document.querySelector('.l-transitionsvideolanding-caption') as HTMLElement;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('transitionsvideolanding lander', () => {
  it('wipes from portrait to portrait with a caption each (name, age, city, the fictional icon), pauses, and has no raw key', async () => {
    prefersReducedMotion(false);
    const { container } = await renderLander(
      <TransitionsvideolandingLander name="transitionsvideolanding" niche={2} profiles={profiles} canSignUp onSignup={vi.fn()} />,
    );
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:transitionsvideolanding.title.2') })).toBeVisible();
    expect(screen.getByText(text('landers:niche.2.pitch'))).toBeVisible();
    expect(screen.getByText(text('landers:transitionsvideolanding.caption'))).toBeVisible();
    expect(caption()).toHaveTextContent(`${profiles[0].name}${profiles[0].age} · ${profiles[0].city}`);
    expect(container.querySelector('.is-entering')).toBeNull();

    fireEvent.animationEnd(screen.getByTestId('reel-timer'));
    fireEvent.animationEnd(screen.getByTestId('reel-timer'));
    expect(caption()).toHaveTextContent(`${profiles[2].name}${profiles[2].age} · ${profiles[2].city}`);
    expect(within(caption()).getByRole('img', { name: 'fictional profile' })).toBeVisible();
    const entering = container.querySelector('.l-transitionsvideolanding-slide.is-entering');
    expect(entering).toHaveClass('l-transitionsvideolanding-wipe-down');
    expect(container.querySelector('.l-transitionsvideolanding-slide.is-previous')).toHaveClass('l-transitionsvideolanding-wipe-circle');

    const toggle = screen.getByTestId('reel-toggle');
    expect(toggle).toHaveAccessibleName(text('landers:transitionsvideolanding.pause'));
    fireEvent.click(toggle);
    expect(toggle).toHaveAccessibleName(text('landers:transitionsvideolanding.play'));
    expect(container.textContent).not.toMatch(/\b(transitionsvideolanding|niche|home|signup|common)[.:][a-z]/);
  });

  it('jumps to a chapter, and signs up about the portrait showing from the photo or its button, and plainly from the call to action', async () => {
    prefersReducedMotion(false);
    const onSignup = vi.fn();
    const { user } = await renderLander(
      <TransitionsvideolandingLander name="transitionsvideolanding" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />,
    );
    await user.click(await screen.findByRole('button', { name: text('landers:transitionsvideolanding.show', { name: profiles[3].name }) }));
    expect(caption()).toHaveTextContent(`${profiles[3].name}${profiles[3].age} · ${profiles[3].city}`);
    expect(within(caption()).queryByRole('img', { name: 'fictional profile' })).toBeNull();
    await user.click(screen.getByTestId('reel-photo'));
    expect(onSignup).toHaveBeenLastCalledWith(profiles[3].id);
    await user.click(screen.getByRole('button', { name: text('landers:transitionsvideolanding.sayHelloTo', { name: profiles[3].name }) }));
    expect(onSignup).toHaveBeenLastCalledWith(profiles[3].id);
    await user.click(screen.getByTestId('lander-cta'));
    expect(onSignup).toHaveBeenLastCalledWith(undefined);
  });

  it('with reduced motion shows a still portrait, fetched first, with no timer and no play button; a chapter changes it without a wipe', async () => {
    prefersReducedMotion(true);
    const { container, user } = await renderLander(
      <TransitionsvideolandingLander name="transitionsvideolanding" niche={1} profiles={profiles} canSignUp onSignup={vi.fn()} />,
    );
    const still = await screen.findByTestId('reel-still');
    const photos = still.querySelectorAll('img');
    expect(photos).toHaveLength(1);
    expect(photos[0]).toHaveAttribute('width', '480');
    expect(photos[0]).toHaveAttribute('height', '600');
    expect(photos[0]).toHaveAttribute('fetchpriority', 'high');
    expect(screen.queryByTestId('reel-timer')).toBeNull();
    expect(screen.queryByTestId('reel-toggle')).toBeNull();
    await user.click(screen.getByRole('button', { name: text('landers:transitionsvideolanding.show', { name: profiles[1].name }) }));
    expect(caption()).toHaveTextContent(profiles[1].name);
    expect(container.querySelector('.is-entering')).toBeNull();
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    prefersReducedMotion(true);
    await renderLander(
      <TransitionsvideolandingLander name="transitionsvideolanding" niche={1} profiles={profiles} canSignUp={false} onSignup={vi.fn()} />,
    );
    expect(await screen.findByTestId('lander-cta')).toHaveAttribute('href', '/login');
    expect(screen.queryByTestId('reel-write')).toBeNull();
  });
});
