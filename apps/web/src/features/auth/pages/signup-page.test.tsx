import { ENTRY_WARNING_STORAGE_KEY, MIN_AGE } from '@amora/contracts/core';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { keepLandingMessage } from '@/shared/profiles/landing-message';
import { answer } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { answers, server } from '@/testing/server';
import { text } from '@/testing/text';

/**
 * /members/{id}/signup, where a member landing leads: the signup with a first message to that profile. The page
 * says whom the message goes to (as the landing showed the profile), starts with what was written on the landing,
 * and sends the profile with the signup.
 */

const fiona = {
  id: 7,
  name: 'Fiona',
  age: 34,
  city: 'Utrecht',
  country: 'NL',
  photo: { src: '/api/lander-photo.php?id=70&w=540', srcSet: '/api/lander-photo.php?id=70&w=360 360w', width: 540, height: 675 },
  facts: {},
  is_fictional: true,
};

beforeEach(() => {
  window.localStorage.setItem(ENTRY_WARNING_STORAGE_KEY, String(Date.now()));
});

describe('/members/{id}/signup', () => {
  it('names the profile, starts with the message begun on its landing, and sends both with the signup', async () => {
    let sent: Record<string, unknown> | null = null;
    server.use(
      answer('GET /api/member-landing.php', ({ request }) =>
        new URL(request.url).searchParams.get('id') === '7' ? { profile: fiona } : undefined,
      ),
      http.post('*/api/signup.php', async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ error: 'validation_failed', message: 'stop here', field: 'email' }, { status: 400 });
      }),
    );
    keepLandingMessage(7, 'Hi Fiona, coffee?');
    const { user } = await renderApp('/members/7/signup?network=test&sub1=x');
    const recipient = await screen.findByTestId('signup-recipient');
    expect(recipient).toHaveTextContent('Fiona, 34');
    expect(recipient).toHaveTextContent('Utrecht');
    expect(screen.getByRole('img', { name: 'fictional profile' })).toBeVisible();
    const message = screen.getByLabelText(text('signup.messageTo', { name: 'Fiona' }));
    expect(message).toHaveValue('Hi Fiona, coffee?');

    await user.type(screen.getByLabelText(text('signup.name')), 'Robin');
    await user.type(screen.getByLabelText(text('signup.email')), 'robin@example.com');
    await user.type(screen.getByLabelText(text('signup.password')), 'correct horse battery');
    await user.type(screen.getByLabelText(text('signup.dateOfBirth', { minAge: MIN_AGE })), '1990-05-04');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: text('signup.submit') }));
    await waitFor(() => expect(sent).not.toBeNull());
    expect(sent).toMatchObject({ profile_id: 7, signup_message: 'Hi Fiona, coffee?', name: 'Robin' });
  });

  it('asks for the message without naming anyone when no landing may show the profile', async () => {
    server.use(http.get('*/api/member-landing.php', () => HttpResponse.json({ error: 'not_found', message: 'x' }, { status: 404 })));
    await renderApp('/members/8/signup');
    expect(await screen.findByLabelText(text('signup.message'))).toHaveValue('');
    expect(screen.queryByTestId('signup-recipient')).toBeNull();
  });

  it("takes a member to that profile's page", async () => {
    server.use(answers.user(userFixture()));
    const { router } = await renderApp('/members/7/signup');
    await waitFor(() => expect(router.state.location.pathname).toBe('/members/7'));
  });
});
