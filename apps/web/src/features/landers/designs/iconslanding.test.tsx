import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { settingsFixture } from '@/testing/fixtures';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { IconslandingLander } from './iconslanding';

const profiles = landerProfiles(14);

describe('iconslanding lander', () => {
  it("shows twelve round portraits with names under the niche's headline, the fictional ones with their icon, with no raw key", async () => {
    const { container } = await renderLander(
      <IconslandingLander name="iconslanding" niche={4} profiles={profiles} canSignUp onSignup={vi.fn()} />,
    );
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:niche.4.headline') })).toBeVisible();
    const faces = screen.getAllByRole('listitem');
    expect(faces).toHaveLength(12);
    for (const [index, profile] of profiles.slice(0, 12).entries()) {
      const face = within(faces[index]);
      expect(face.getByText(profile.name)).toBeVisible();
      expect(face.queryByRole('img', { name: 'fictional profile' }) !== null).toBe(profile.is_fictional);
    }
    expect(container.textContent).not.toMatch(/\b(iconslanding|niche|home|signup)\.\w/);
  });

  it('opens signup about the profile whose face is clicked, and without one from the button', async () => {
    const onSignup = vi.fn();
    const { user } = await renderLander(
      <IconslandingLander name="iconslanding" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />,
      { settings: settingsFixture({ signup_credits: 1 }) },
    );
    const face = profiles[5];
    await user.click(
      await screen.findByRole('button', { name: text('landers:iconslanding.sayHello', { name: face.name, age: face.age }) }),
    );
    expect(onSignup).toHaveBeenLastCalledWith(face.id);
    await user.click(screen.getByRole('button', { name: text('landers:iconslanding.cta') }));
    expect(onSignup).toHaveBeenLastCalledWith(undefined);
    expect(screen.getByText(text('landers:iconslanding.credits', { count: 1 }))).toBeVisible();
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    await renderLander(<IconslandingLander name="iconslanding" niche={1} profiles={profiles} canSignUp={false} onSignup={vi.fn()} />);
    expect(await screen.findByRole('link', { name: text('home.ctaLogin') })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
