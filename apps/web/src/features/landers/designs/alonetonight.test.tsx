import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { settingsFixture } from '@/testing/fixtures';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { AlonetonightLander } from './alonetonight';

const profiles = landerProfiles(6);

describe('alonetonight lander', () => {
  it('shows three portraits, the fictional one with its icon, and the niche copy, with no raw key', async () => {
    const onSignup = vi.fn();
    const { container } = await renderLander(
      <AlonetonightLander name="alonetonight" niche={6} profiles={profiles} canSignUp onSignup={onSignup} />,
    );
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:alonetonight.title') })).toBeVisible();
    expect(screen.getByText(text('landers:alonetonight.lead.6'))).toBeVisible();
    expect(screen.getByText(text('landers:niche.6.label'))).toBeVisible();
    const portraits = screen.getAllByRole('listitem').filter((item) => item.classList.contains('l-alonetonight-card'));
    expect(portraits).toHaveLength(3);
    for (const [index, profile] of profiles.slice(0, 3).entries()) {
      const portrait = portraits[index];
      expect(within(portrait).getByText(`${profile.name}, ${profile.age}`)).toBeVisible();
      expect(within(portrait).queryByRole('img', { name: 'fictional profile' }) !== null).toBe(profile.is_fictional);
    }
    expect(screen.queryByText(profiles[3].name, { exact: false })).toBeNull();
    expect(container.textContent).not.toMatch(/\b(alonetonight|niche|home|signup)\.\w/);
  });

  it('opens signup from the call to action, and about a profile from its portrait', async () => {
    const onSignup = vi.fn();
    const { user } = await renderLander(
      <AlonetonightLander name="alonetonight" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />,
      { settings: settingsFixture({ signup_credits: 20 }) },
    );
    expect(await screen.findByText(text('home.points.free', { count: 20 }))).toBeVisible();
    await user.click(screen.getByRole('button', { name: text('landers:alonetonight.cta') }));
    expect(onSignup).toHaveBeenLastCalledWith(undefined);
    const second = profiles[1];
    await user.click(screen.getByRole('button', { name: text('landers:alonetonight.sayHello', { name: second.name, age: second.age }) }));
    expect(onSignup).toHaveBeenLastCalledWith(second.id);
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    const onSignup = vi.fn();
    await renderLander(<AlonetonightLander name="alonetonight" niche={1} profiles={profiles} canSignUp={false} onSignup={onSignup} />);
    expect(await screen.findByRole('link', { name: text('home.ctaLogin') })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
