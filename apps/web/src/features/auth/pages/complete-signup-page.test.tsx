import {
  type CompleteSignupInput,
  geocodeResponseSchema,
  ownProfileResponseSchema,
  signupMatchesResponseSchema,
  type User,
  userResponseSchema,
} from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { recordCalls, server } from '@/testing/server';
import { text } from '@/testing/text';

/** A new member as signup leaves them: not confirmed yet, placed in the site's default country. */
const newMember = () => userFixture({ status: 'not_confirmed', credits: 20 }, { status: 'disabled' });

/** The browser's geolocation (happy-dom has none): a position near Amsterdam's centre, or a refusal. */
function fakeGeolocation(answer: 'amsterdam' | 'denied') {
  const getCurrentPosition = vi.fn((success: PositionCallback, failure?: PositionErrorCallback | null, _options?: PositionOptions) => {
    if (answer === 'denied') {
      failure?.({
        code: 1,
        message: 'User denied Geolocation',
        PERMISSION_DENIED: 1,
        POSITION_UNAVAILABLE: 2,
        TIMEOUT: 3,
      } as GeolocationPositionError);
    } else {
      success({ coords: { latitude: 52.3731, longitude: 4.8922, accuracy: 20 }, timestamp: Date.now() } as GeolocationPosition);
    }
  });
  Object.defineProperty(navigator, 'geolocation', {
    configurable: true,
    value: { getCurrentPosition, watchPosition: vi.fn(), clearWatch: vi.fn() },
  });
  return getCurrentPosition;
}

/** The calls the page makes: geocode.php answers Amsterdam, complete-signup.php keeps what it was sent. */
function answerCalls(options: { refuse?: { field: string; message_key: string } } = {}) {
  const sent: CompleteSignupInput[] = [];
  const geocodedAt: string[] = [];
  let user: User = newMember();
  server.use(
    http.get('*/api/user.php', () => contractJson(userResponseSchema, { user })),
    http.get('*/api/geocode.php', ({ request }) => {
      geocodedAt.push(new URL(request.url).search);
      return contractJson(geocodeResponseSchema, {
        city_id: 2759794,
        city: 'Amsterdam',
        country: 'NL',
        region: 'NL-NH',
        region_name: 'Noord-Holland',
      });
    }),
    http.put('*/api/complete-signup.php', async ({ request }) => {
      const body = (await request.json()) as CompleteSignupInput;
      sent.push(body);
      if (options.refuse) {
        return HttpResponse.json({ error: 'validation_failed', message: 'Wrong', ...options.refuse }, { status: 400 });
      }
      user = userFixture(
        {
          status: 'not_confirmed',
          credits: 20,
          search_defaults: { gender: 'woman', country: body.country, countryregion: body.region ?? null },
        },
        { status: 'disabled', country: body.country },
      );
      return contractJson(ownProfileResponseSchema, {
        profile: {
          id: 70,
          name: 'Robin',
          age: 33,
          country: body.country,
          region: body.region ?? null,
          city: body.city ?? null,
          about: '',
          gender: body.gender,
          sexuality: null,
          hair_colour: null,
          eye_colour: null,
          body_type: null,
          relationship_status: null,
          looking_for: body.looking_for,
          interests: [],
          is_invisible: false,
          main_photo_id: null,
          photos: [],
          photo_limit: 3,
        },
      });
    }),
    http.get('*/api/signup-matches.php', () => contractJson(signupMatchesResponseSchema, { profiles: [] })),
  );
  return { sent, geocodedAt };
}

const originalGeolocation = Object.getOwnPropertyDescriptor(navigator, 'geolocation');
beforeEach(() => {
  Reflect.deleteProperty(navigator, 'geolocation');
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'geolocation');
  if (originalGeolocation) Object.defineProperty(navigator, 'geolocation', originalGeolocation);
});

describe('/complete-signup (spec §2)', () => {
  it('asks gender, whom to meet and where; the position only on a click; then on to the signup matches', async () => {
    const locate = fakeGeolocation('amsterdam');
    const { sent, geocodedAt } = answerCalls();
    const calls = recordCalls();
    const { user, router } = await renderApp('/complete-signup', { user: newMember() });
    const form = await screen.findByTestId('complete-signup-form');
    expect(screen.getByTestId('complete-signup')).toHaveTextContent('20 credits');
    // Never asked on page load.
    expect(locate).not.toHaveBeenCalled();
    expect(calls).not.toContain('GET /api/geocode.php');

    const gender = within(form).getByRole('group', { name: new RegExp(text('completeSignup.gender')) });
    await user.click(within(gender).getByLabelText(text('profile.attributes.gender.man')));
    const lookingFor = within(form).getByRole('group', { name: new RegExp(text('completeSignup.lookingFor.label')) });
    await user.click(within(lookingFor).getByLabelText(text('completeSignup.lookingFor.woman')));

    await user.click(within(form).getByRole('button', { name: text('profile.location.useMine') }));
    expect(locate).toHaveBeenCalledTimes(1);
    expect(locate.mock.calls[0][2]).toMatchObject({ maximumAge: 3_600_000 });
    expect(await within(form).findByRole('status')).toHaveTextContent(
      text('profile.location.found', { city: 'Amsterdam', country: 'Netherlands' }),
    );
    expect(geocodedAt).toEqual(['?lat=52.3731&lon=4.8922']);
    expect(within(form).getByLabelText(new RegExp(text('profile.location.country')))).toHaveValue('NL');
    expect(within(form).getByLabelText(text('profile.location.region'))).toHaveValue('NL-NH');
    expect(within(form).getByLabelText(text('profile.location.city'))).toHaveValue('Amsterdam');

    await user.click(within(form).getByRole('button', { name: text('completeSignup.continue') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup-matches'));
    expect(await screen.findByText(text('profile.saved'))).toBeVisible();
    expect(sent).toEqual([{ gender: 'man', looking_for: ['woman'], country: 'NL', region: 'NL-NH', city: 'Amsterdam', city_id: 2759794 }]);
  });

  it('without answers says what is missing and sends nothing; the place can be chosen by hand', async () => {
    const { sent } = answerCalls();
    const { user, router } = await renderApp('/complete-signup', { user: newMember() });
    const form = await screen.findByTestId('complete-signup-form');
    const locate = fakeGeolocation('amsterdam');

    await user.click(within(form).getByRole('button', { name: text('completeSignup.continue') }));
    expect(await within(form).findByText(text('completeSignup.errors.gender'))).toBeVisible();
    expect(within(form).getByText(text('completeSignup.errors.lookingFor'))).toBeVisible();
    expect(sent).toEqual([]);

    await user.click(within(form).getByLabelText(text('profile.attributes.gender.woman')));
    await user.click(within(form).getByLabelText(text('completeSignup.lookingFor.woman')));
    await user.click(within(form).getByLabelText(text('completeSignup.lookingFor.man')));
    expect(within(form).queryByText(text('completeSignup.errors.gender'))).toBeNull();
    await user.selectOptions(within(form).getByLabelText(new RegExp(text('profile.location.country'))), 'DE');
    await user.selectOptions(await within(form).findByLabelText(text('profile.location.region')), 'DE-BE');
    await user.type(within(form).getByLabelText(text('profile.location.city')), 'Berlin');
    await user.click(within(form).getByRole('button', { name: text('completeSignup.continue') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup-matches'));
    expect(sent).toEqual([
      { gender: 'woman', looking_for: ['woman', 'man'], country: 'DE', region: 'DE-BE', city: 'Berlin', city_id: null },
    ]);
    expect(locate).not.toHaveBeenCalled();
  });

  it("shows the server's refusal at its field and stays", async () => {
    const { sent } = answerCalls({ refuse: { field: 'region', message_key: 'completeSignup.errors.region' } });
    const { user, router } = await renderApp('/complete-signup', { user: newMember() });
    const form = await screen.findByTestId('complete-signup-form');
    await user.click(within(form).getByLabelText(text('profile.attributes.gender.nonbinary')));
    await user.click(within(form).getByLabelText(text('completeSignup.lookingFor.nonbinary')));
    await user.click(within(form).getByRole('button', { name: text('completeSignup.continue') }));
    const region = within(form).getByLabelText(text('profile.location.region'));
    await waitFor(() => expect(region).toHaveAttribute('aria-invalid', 'true'));
    expect(region).toHaveAccessibleDescription(text('completeSignup.errors.region'));
    expect(sent).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/complete-signup');
  });

  it('a refused position says so, in the page language, and the place stays to be chosen by hand', async () => {
    fakeGeolocation('denied');
    answerCalls();
    const { user } = await renderApp('/de/complete-signup', { user: newMember() });
    const form = await screen.findByTestId('complete-signup-form');
    await user.click(within(form).getByRole('button', { name: 'Meinen Standort verwenden' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(text('profile.location.denied'));
    // The page speaks German (text() reads the catalogue of the page's language).
    expect(text('profile.location.useMine')).toBe('Meinen Standort verwenden');
    expect(within(form).getByLabelText(new RegExp(text('profile.location.country')))).toHaveValue('NL');
  });

  it('sends a visitor home', async () => {
    const { router } = await renderApp('/complete-signup');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
