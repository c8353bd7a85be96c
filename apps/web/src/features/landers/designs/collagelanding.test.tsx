import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { CollagelandingLander } from './collagelanding';

describe('collagelanding lander', () => {
  it('lays the profiles out as a collage behind the card, fills the rest with colour, marks the fictional ones, with no raw key', async () => {
    const profiles = landerProfiles(7);
    const { container } = await renderLander(
      <CollagelandingLander name="collagelanding" niche={3} profiles={profiles} canSignUp onSignup={vi.fn()} />,
    );
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:collagelanding.title') })).toBeVisible();
    expect(screen.getByText(text('landers:niche.3.pitch'))).toBeVisible();
    const tiles = container.querySelectorAll('.l-collagelanding-tile');
    expect(tiles).toHaveLength(28);
    for (const [index, profile] of profiles.entries()) {
      const tile = within(tiles[index] as HTMLElement);
      expect(tile.getByText(`${profile.name}, ${profile.age}`)).toBeVisible();
      expect(tile.queryByRole('img', { name: 'fictional profile' }) !== null).toBe(profile.is_fictional);
    }
    expect(container.querySelectorAll('.l-collagelanding-filler')).toHaveLength(28 - profiles.length);
    expect(container.textContent).not.toMatch(/\b(collagelanding|niche|home|signup)\.\w/);
  });

  it("opens signup from the card's button, and about a profile from its tile", async () => {
    const profiles = landerProfiles(26);
    const onSignup = vi.fn();
    const { user } = await renderLander(
      <CollagelandingLander name="collagelanding" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />,
    );
    await user.click(await screen.findByRole('button', { name: text('landers:collagelanding.cta') }));
    expect(onSignup).toHaveBeenLastCalledWith(undefined);
    const tile = profiles[2];
    await user.click(screen.getByRole('button', { name: text('landers:collagelanding.sayHello', { name: tile.name, age: tile.age }) }));
    expect(onSignup).toHaveBeenLastCalledWith(tile.id);
    expect(screen.getByRole('link', { name: text('home.ctaLogin') })).toHaveAttribute('href', '/login');
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    await renderLander(
      <CollagelandingLander name="collagelanding" niche={1} profiles={landerProfiles(3)} canSignUp={false} onSignup={vi.fn()} />,
    );
    expect(await screen.findByText(text('signup.closed', { site: 'Amora' }))).toBeVisible();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
