import { type OwnProfile, ownProfileResponseSchema, type ProfileUpdate } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { recordCalls, server } from '@/testing/server';
import { text } from '@/testing/text';

const ownProfile = (overrides: Partial<OwnProfile> = {}): OwnProfile => ({
  id: 70,
  name: 'Robin',
  age: 33,
  country: 'NL',
  region: null,
  city: null,
  about: '',
  gender: 'man',
  sexuality: null,
  hair_colour: null,
  eye_colour: null,
  body_type: null,
  relationship_status: null,
  looking_for: ['woman'],
  interests: [],
  is_invisible: false,
  main_photo_id: null,
  photos: [],
  photo_limit: 3,
  ...overrides,
});

describe('own profile: whom I want to meet', () => {
  it('shows the answer of /complete-signup, saves a change and asks for the user again (its search defaults)', async () => {
    const sent: ProfileUpdate[] = [];
    server.use(
      http.get('*/api/profile.php', () => contractJson(ownProfileResponseSchema, { profile: ownProfile() })),
      http.put('*/api/profile.php', async ({ request }) => {
        const body = (await request.json()) as ProfileUpdate;
        sent.push(body);
        return contractJson(ownProfileResponseSchema, { profile: ownProfile({ looking_for: body.looking_for ?? null }) });
      }),
    );
    const { user } = await renderApp('/profile', { user: userFixture() });
    const form = await screen.findByTestId('profile-form');
    const group = within(form).getByRole('group', { name: text('completeSignup.lookingFor.label') });
    expect(within(group).getByLabelText(text('completeSignup.lookingFor.woman'))).toBeChecked();
    expect(within(group).getByLabelText(text('completeSignup.lookingFor.man'))).not.toBeChecked();

    await user.click(within(group).getByLabelText(text('completeSignup.lookingFor.nonbinary')));
    const calls = recordCalls();
    await user.click(within(form).getByTestId('profile-save'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].looking_for).toEqual(['woman', 'nonbinary']);
    await waitFor(() => expect(calls).toContain('GET /api/user.php'));
  });
});
