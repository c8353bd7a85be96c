import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { GalleryLander } from './gallery';

const profiles = landerProfiles(8);

describe('gallery lander', () => {
  it('shows every portrait with name, age and city, the fictional ones with their icon, and the niche copy, with no raw key', async () => {
    const { container } = await renderLander(<GalleryLander name="gallery" niche={4} profiles={profiles} canSignUp onSignup={vi.fn()} />);
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:gallery.title.4') })).toBeVisible();
    expect(screen.getByText(text('landers:niche.4.label'))).toBeVisible();
    expect(screen.getByText(text('landers:niche.4.pitch'))).toBeVisible();
    const tiles = screen.getAllByTestId('gallery-tile');
    expect(tiles).toHaveLength(profiles.length);
    for (const [index, profile] of profiles.entries()) {
      expect(within(tiles[index]).getByText(`${profile.name}, ${profile.age}`)).toBeVisible();
      if (profile.city) expect(within(tiles[index]).getByText(profile.city)).toBeVisible();
      expect(within(tiles[index]).queryByRole('img', { name: 'fictional profile' }) !== null).toBe(profile.is_fictional);
    }
    expect(container.textContent).not.toMatch(/\b(gallery|niche|home|signup|common)[.:][a-z]/);
  });

  it('paints its first portrait as the page’s first, sized image, fetched first', async () => {
    const { container } = await renderLander(<GalleryLander name="gallery" niche={1} profiles={profiles} canSignUp onSignup={vi.fn()} />);
    const first = container.querySelector('img.l-gallery-photo');
    expect(first).toHaveAttribute('src', profiles[0].photo?.src);
    expect(first).toHaveAttribute('width', '480');
    expect(first).toHaveAttribute('height', '600');
    expect(first).toHaveAttribute('fetchpriority', 'high');
    expect(first).not.toHaveAttribute('loading', 'lazy');
    expect(container.querySelectorAll('img.l-gallery-photo[fetchpriority="high"]')).toHaveLength(1);
  });

  it('opens a portrait up close, pages through them, and signs up about the one showing from its photo or its button', async () => {
    const onSignup = vi.fn();
    const { user } = await renderLander(<GalleryLander name="gallery" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />);
    await user.click(screen.getAllByTestId('gallery-tile')[2]);
    const focus = await screen.findByTestId('gallery-focus');
    expect(within(focus).getByRole('heading', { name: `${profiles[2].name}, ${profiles[2].age} fictional profile` })).toBeVisible();
    expect(within(focus).getByText(text('landers:gallery.position', { current: 3, total: 8 }))).toBeVisible();
    await user.click(within(focus).getByRole('button', { name: text('landers:gallery.next') }));
    expect(within(focus).getByRole('heading', { name: `${profiles[3].name}, ${profiles[3].age}` })).toBeVisible();
    await user.click(within(focus).getByTestId('gallery-focus-photo'));
    expect(onSignup).toHaveBeenLastCalledWith(profiles[3].id);
    expect(screen.queryByTestId('gallery-focus')).toBeNull();

    await user.click(screen.getAllByTestId('gallery-tile')[0]);
    const again = await screen.findByTestId('gallery-focus');
    await user.click(within(again).getByRole('button', { name: text('landers:gallery.previous') }));
    const cta = within(again).getByTestId('gallery-focus-cta');
    expect(cta).toHaveAccessibleName(text('landers:gallery.writeTo', { name: profiles[7].name }));
    await user.click(cta);
    expect(onSignup).toHaveBeenLastCalledWith(profiles[7].id);

    await user.click(screen.getByTestId('lander-cta'));
    expect(onSignup).toHaveBeenLastCalledWith(undefined);
  });

  it('closes the focus view with its close button', async () => {
    const { user } = await renderLander(<GalleryLander name="gallery" niche={1} profiles={profiles} canSignUp onSignup={vi.fn()} />);
    await user.click(screen.getAllByTestId('gallery-tile')[1]);
    await user.click(within(await screen.findByTestId('gallery-focus')).getByRole('button', { name: text('common.close') }));
    expect(screen.queryByTestId('gallery-focus')).toBeNull();
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    const { user } = await renderLander(
      <GalleryLander name="gallery" niche={1} profiles={profiles} canSignUp={false} onSignup={vi.fn()} />,
    );
    expect(await screen.findByRole('link', { name: text('home.ctaLogin') })).toHaveAttribute('href', '/login');
    await user.click(screen.getAllByTestId('gallery-tile')[0]);
    const focus = await screen.findByTestId('gallery-focus');
    expect(within(focus).getByTestId('gallery-focus-cta')).toHaveAttribute('href', '/login');
  });
});
