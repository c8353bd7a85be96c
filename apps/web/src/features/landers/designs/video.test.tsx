import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { VideoLander } from './video';

const profiles = landerProfiles(6);

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

afterEach(() => {
  vi.restoreAllMocks();
});

describe('video lander', () => {
  it('plays the portraits one after another, pauses and plays again, naming each with its fictional icon', async () => {
    prefersReducedMotion(false);
    const { container } = await renderLander(<VideoLander name="video" niche={7} profiles={profiles} canSignUp onSignup={vi.fn()} />);
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:video.title.7') })).toBeVisible();
    expect(screen.getByText(text('landers:niche.7.audience'))).toBeVisible();
    expect(screen.getByText(text('landers:video.caption'))).toBeVisible();
    const screenBox = screen.getByTestId('video-slideshow');
    const who = () => container.querySelector('.l-video-who');
    expect(who()).toHaveTextContent(`${profiles[0].name}, ${profiles[0].age}`);
    // The next portrait is loaded while the first plays; none further yet.
    expect(screenBox.querySelectorAll('.l-video-slide')).toHaveLength(2);
    fireEvent.animationEnd(screen.getByTestId('video-timer'));
    fireEvent.animationEnd(screen.getByTestId('video-timer'));
    expect(who()).toHaveTextContent(`${profiles[2].name}, ${profiles[2].age}`);
    expect(within(who() as HTMLElement).getByRole('img', { name: 'fictional profile' })).toBeVisible();
    expect(screenBox.querySelectorAll('.l-video-slide')).toHaveLength(4);

    const toggle = screen.getByTestId('video-toggle');
    expect(toggle).toHaveAccessibleName(text('landers:video.pause'));
    fireEvent.click(toggle);
    expect(toggle).toHaveAccessibleName(text('landers:video.play'));
    expect(screenBox).toHaveClass('is-paused');
    fireEvent.click(toggle);
    expect(toggle).toHaveAccessibleName(text('landers:video.pause'));
    expect(container.textContent).not.toMatch(/\b(video|niche|home|signup|common)[.:][a-z]/);
  });

  it('signs up about the portrait showing from the screen or its button, about anyone from the cast, and plainly from the call to action', async () => {
    prefersReducedMotion(false);
    const onSignup = vi.fn();
    const { user } = await renderLander(<VideoLander name="video" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />);
    fireEvent.animationEnd(await screen.findByTestId('video-timer'));
    await user.click(screen.getByTestId('video-frame'));
    expect(onSignup).toHaveBeenLastCalledWith(profiles[1].id);
    await user.click(screen.getByRole('button', { name: text('landers:video.writeTo', { name: profiles[1].name }) }));
    expect(onSignup).toHaveBeenLastCalledWith(profiles[1].id);
    const cast = screen.getAllByTestId('video-cast');
    expect(cast).toHaveLength(profiles.length);
    for (const [index, profile] of profiles.entries()) {
      expect(within(cast[index]).queryByRole('img', { name: 'fictional profile' }) !== null).toBe(profile.is_fictional);
    }
    await user.click(cast[4]);
    expect(onSignup).toHaveBeenLastCalledWith(profiles[4].id);
    await user.click(screen.getByTestId('lander-cta'));
    expect(onSignup).toHaveBeenLastCalledWith(undefined);
  });

  it('with reduced motion shows the first portrait still: one photo, the first fetched first, no timer, no play button', async () => {
    prefersReducedMotion(true);
    const { container } = await renderLander(<VideoLander name="video" niche={1} profiles={profiles} canSignUp onSignup={vi.fn()} />);
    const still = await screen.findByTestId('video-still');
    const photos = still.querySelectorAll('img');
    expect(photos).toHaveLength(1);
    expect(photos[0]).toHaveAttribute('src', profiles[0].photo?.src);
    expect(photos[0]).toHaveAttribute('width', '480');
    expect(photos[0]).toHaveAttribute('height', '600');
    expect(photos[0]).toHaveAttribute('fetchpriority', 'high');
    expect(screen.queryByTestId('video-timer')).toBeNull();
    expect(screen.queryByTestId('video-toggle')).toBeNull();
    expect(container.querySelector('.l-video-who')).toHaveTextContent(`${profiles[0].name}, ${profiles[0].age}`);
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    prefersReducedMotion(true);
    await renderLander(<VideoLander name="video" niche={1} profiles={profiles} canSignUp={false} onSignup={vi.fn()} />);
    expect(await screen.findByTestId('lander-cta')).toHaveAttribute('href', '/login');
    expect(screen.getByTestId('video-frame')).toHaveAttribute('href', '/login');
  });
});
