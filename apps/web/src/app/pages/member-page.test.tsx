import { likeResponseSchema, type MemberResponse, memberResponseSchema, okResponseSchema } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { likesFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { answers, recordCalls, server } from '@/testing/server';
import { text } from '@/testing/text';

const noa = { id: 5, name: 'Noa', age: 31, city: 'Utrecht', country: 'NL', thumb_url: null, is_fictional: false, is_premium: false };

function memberAnswer(profile: Partial<MemberResponse['profile']> = {}) {
  return http.get('*/api/member.php', () =>
    contractJson(memberResponseSchema, {
      profile: {
        id: noa.id,
        name: noa.name,
        age: noa.age,
        city: noa.city,
        country: noa.country,
        is_fictional: false,
        is_premium: false,
        region: null,
        about: '',
        attributes: {},
        interests: [],
        photos: [{ id: 50, is_locked: false, url: '/photos/50.webp', thumb_url: '/photos/50-thumb.webp' }],
        hidden_photo_count: 0,
        is_blocked_by_me: false,
        is_own: false,
        ...profile,
      },
      related: [],
    }),
  );
}

/** The member page of features/profiles with the like button of features/likes, put together in app/pages. */
describe('member page', () => {
  it("shows features/likes' like button on another member's page, pressed when I like them, and likes through it", async () => {
    server.use(memberAnswer());
    const { user } = await renderApp('/members/5', {
      user: userFixture(),
      likes: likesFixture({ profiles: [{ ...noa, is_match: false }] }),
    });
    const liked = await screen.findByRole('button', { name: text('likes.liked') });
    expect(liked).toHaveAttribute('aria-pressed', 'true');

    server.use(http.delete('*/api/like.php', () => contractJson(okResponseSchema, { ok: true })));
    await user.click(liked);
    expect(await screen.findByRole('button', { name: text('likes.like') })).toHaveAttribute('aria-pressed', 'false');

    server.use(http.post('*/api/like.php', () => contractJson(likeResponseSchema, { ok: true, is_match: false })));
    await user.click(screen.getByRole('button', { name: text('likes.like') }));
    expect(await screen.findByRole('button', { name: text('likes.liked') })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows no like button on my own profile', async () => {
    server.use(memberAnswer({ is_own: true }));
    await renderApp('/members/5', { user: userFixture() });
    expect(await screen.findByRole('link', { name: text('profile.edit') })).toBeVisible();
    expect(screen.queryByTestId('like-button')).toBeNull();
  });

  it('opened from my likes (/likes/m/{id}), tells the server the like to me is seen; opened as /members/{id}, it does not', async () => {
    const seen: unknown[] = [];
    server.use(
      memberAnswer(),
      http.post('*/api/likes-seen.php', async ({ request }) => {
        seen.push(await request.json());
        return contractJson(okResponseSchema, { ok: true });
      }),
    );
    const likes = likesFixture({ liked_by: [{ ...noa, is_match: false, like_new: true }], new_likes: 1 });

    const calls = recordCalls();
    await renderApp('/members/5', { user: userFixture(), likes });
    await screen.findByRole('heading', { name: /Noa, 31/ });
    expect(calls).not.toContain('POST /api/likes-seen.php');

    await renderApp('/likes/m/5', { user: userFixture(), likes });
    await waitFor(() => expect(seen).toEqual([{ profile_id: 5 }]));
  });

  it("shows the member's interests in the order of the site's interests (interests.php)", async () => {
    server.use(memberAnswer({ interests: ['travel', 'music', 'sports'] }), answers.interests(['sports', 'music', 'cooking']));
    await renderApp('/members/5', { user: userFixture() });
    const list = await screen.findByTestId('member-interests');
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['interests.sports', 'interests.music', 'interests.travel'].map((key) => text(key))),
    );
  });

  it('shows the not-found page for an id that is not a number', async () => {
    server.use(http.get('*/api/member.php', () => HttpResponse.json({ error: 'not_found', message: 'Not found' }, { status: 404 })));
    await renderApp('/members/abc', { user: userFixture() });
    expect(await screen.findByRole('heading', { name: text('errors.notFound') })).toBeVisible();
  });
});
