import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { SocialnetworkLander } from './socialnetwork';

const profiles = landerProfiles(10);

describe('socialnetwork lander', () => {
  it('shows a feed of profile cards (name, age, city), the fictional ones with their icon, with no raw key', async () => {
    const { container } = await renderLander(
      <SocialnetworkLander name="socialnetwork" niche={7} profiles={profiles} canSignUp onSignup={vi.fn()} />,
    );
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:niche.7.headline') })).toBeVisible();
    const cards = screen.getAllByRole('article');
    expect(cards).toHaveLength(8);
    for (const [index, profile] of profiles.slice(0, 8).entries()) {
      const card = within(cards[index]);
      expect(card.getByText(`${profile.name}, ${profile.age}`)).toBeVisible();
      if (profile.city) expect(card.getByText(profile.city)).toBeVisible();
      expect(card.queryByRole('img', { name: 'fictional profile' }) !== null).toBe(profile.is_fictional);
    }
    expect(container.textContent).not.toMatch(/\b(socialnetwork|niche|home|signup)\.\w/);
  });

  it('opens signup about a profile from its Like and Say hello buttons, and without one from Join', async () => {
    const onSignup = vi.fn();
    const { user } = await renderLander(
      <SocialnetworkLander name="socialnetwork" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />,
    );
    const [first, , third] = profiles;
    await user.click(await screen.findByRole('button', { name: text('landers:socialnetwork.likeLabel', { name: first.name }) }));
    expect(onSignup).toHaveBeenLastCalledWith(first.id);
    await user.click(screen.getByRole('button', { name: text('landers:socialnetwork.helloLabel', { name: third.name }) }));
    expect(onSignup).toHaveBeenLastCalledWith(third.id);
    await user.click(screen.getAllByRole('button', { name: text('landers:socialnetwork.cta') })[0]);
    expect(onSignup).toHaveBeenLastCalledWith(undefined);
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    await renderLander(<SocialnetworkLander name="socialnetwork" niche={1} profiles={profiles} canSignUp={false} onSignup={vi.fn()} />);
    expect(await screen.findByText(text('signup.closed', { site: 'Amora' }))).toBeVisible();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('link', { name: text('landers:socialnetwork.helloLabel', { name: profiles[0].name }) })).toHaveAttribute(
      'href',
      '/login',
    );
  });
});
