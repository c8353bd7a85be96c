import {
  chatReportResponseSchema,
  likeResponseSchema,
  type MemberResponse,
  memberResponseSchema,
  okResponseSchema,
  sendMessageResponseSchema,
} from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { chatMessageFixture, likesFixture, settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { answers, recordCalls, server } from '@/testing/server';
import { text } from '@/testing/text';

const noa = { id: 5, name: 'Noa', age: 31, city: 'Utrecht', country: 'NL', thumb_url: null, is_fictional: false, is_premium: false };

function memberAnswer(profile: Partial<MemberResponse['profile']> = {}, related: MemberResponse['related'] = []) {
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
      related,
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

  it('marks a fictional profile among the related ones with the site’s icon, and no other', async () => {
    const lotte = { ...noa, id: 6, name: 'Lotte', is_fictional: true };
    const sam = { ...noa, id: 7, name: 'Sam' };
    server.use(memberAnswer({}, [lotte, sam]));
    await renderApp('/members/5', { user: userFixture() });
    const related = await screen.findByRole('region', { name: text('member.related') });
    const icon = within(within(related).getByRole('link', { name: /Lotte/ })).getByRole('img', {
      name: settingsFixture().fictional_singular,
    });
    expect(icon).toHaveAttribute('data-fictional-mark');
    expect(
      within(within(related).getByRole('link', { name: /Sam/ })).queryByRole('img', { name: settingsFixture().fictional_singular }),
    ).toBeNull();
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

describe('member page: report, blocked, gift', () => {
  it('a member reports the profile with the chat’s reasons and note, and gets the reference', async () => {
    const reports: unknown[] = [];
    server.use(
      memberAnswer(),
      http.post('*/api/chat-report.php', async ({ request }) => {
        reports.push(await request.json());
        return contractJson(chatReportResponseSchema, { ok: true, reference: 'C-ABCD2345' });
      }),
    );
    const { user } = await renderApp('/members/5', { user: userFixture() });
    await user.click(await screen.findByRole('button', { name: text('chatSafety.report.memberLabel', { name: 'Noa' }) }));
    const dialog = await screen.findByTestId('report-dialog');
    expect(within(dialog).getByRole('heading')).toHaveTextContent(text('chatSafety.report.titleMember', { name: 'Noa' }));
    await user.click(within(dialog).getByLabelText(text('chatSafety.report.reasons.fake')));
    await user.type(within(dialog).getByLabelText(text('chatSafety.report.note')), 'Stolen photos');
    await user.click(within(dialog).getByTestId('report-submit'));
    expect(await within(dialog).findByTestId('report-done')).toHaveTextContent(
      text('chatSafety.report.reference', { reference: 'C-ABCD2345' }),
    );
    expect(reports).toEqual([{ profile: 5, reason: 'fake', text: 'Stolen photos' }]);
  });

  it('a second report of the same profile is refused in words, in the dialog', async () => {
    server.use(
      memberAnswer(),
      http.post('*/api/chat-report.php', () =>
        HttpResponse.json(
          { error: 'already_reported', message: 'You already reported Noa', name: 'Noa', message_key: 'chatSafety.errors.alreadyReported' },
          { status: 409 },
        ),
      ),
    );
    const { user } = await renderApp('/members/5', { user: userFixture() });
    await user.click(await screen.findByTestId('profile-report'));
    const dialog = await screen.findByTestId('report-dialog');
    await user.click(within(dialog).getByLabelText(text('chatSafety.report.reasons.spam')));
    await user.click(within(dialog).getByTestId('report-submit'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text('chatSafety.errors.alreadyReported'));
  });

  it('a profile I blocked shows only that I blocked them and Unblock: no Like, Message, Gift or Report', async () => {
    server.use(memberAnswer({ is_blocked_by_me: true }));
    await renderApp('/members/5', { user: userFixture() });
    expect(await screen.findByTestId('blocked-by-me')).toHaveTextContent(text('member.blockedByMe', { name: 'Noa' }));
    expect(screen.getByTestId('block-toggle')).toHaveTextContent(text('member.unblock'));
    for (const id of ['like-button', 'message-button', 'gift-button', 'profile-report']) expect(screen.queryByTestId(id), id).toBeNull();
  });

  it('a member’s Gift opens the chat’s gift picker for the profile and sends through messages.php, at the gift’s price', async () => {
    const sent: unknown[] = [];
    server.use(
      memberAnswer(),
      http.post('*/api/messages.php', async ({ request }) => {
        const input = (await request.json()) as { gift: string; client_id: string };
        sent.push(input);
        return contractJson(sendMessageResponseSchema, {
          message: chatMessageFixture(1, {
            conversation_id: 7,
            from_me: true,
            kind: 'gift',
            gift: 'rose',
            body: '',
            client_id: input.client_id,
            price: 5,
          }),
          credits: 15,
        });
      }),
    );
    const { user } = await renderApp('/members/5', { user: userFixture({ credits: 20 }), settings: settingsFixture({ gift_credits: 5 }) });
    await user.click(await screen.findByTestId('gift-button'));
    const picker = await screen.findByTestId('gift-picker');
    expect(within(picker).getByTestId('gift-price')).toHaveTextContent(text('chat.giftPrice', { count: 5 }));
    await user.click(within(picker).getByTestId('gift-rose'));
    await user.click(within(picker).getByTestId('gift-send'));
    expect(await screen.findByText(text('chat.giftSent', { name: 'Noa' }))).toBeVisible();
    expect(sent).toEqual([{ profile: 5, gift: 'rose', client_id: expect.any(String) }]);
    await waitFor(() => expect(screen.queryByTestId('gift-picker')).toBeNull());
  });

  it('a Gift without enough credits gets the chat’s dialog with the way to buy more', async () => {
    server.use(
      memberAnswer(),
      http.post('*/api/messages.php', () =>
        HttpResponse.json(
          { error: 'not_enough_credits', message: 'Not enough credits', credits: 2, price: 5, message_key: 'chat.errors.notEnoughCredits' },
          { status: 402 },
        ),
      ),
    );
    const { user } = await renderApp('/members/5', { user: userFixture({ credits: 2 }), settings: settingsFixture({ gift_credits: 5 }) });
    await user.click(await screen.findByTestId('gift-button'));
    await user.click(await screen.findByTestId('gift-rose'));
    await user.click(screen.getByTestId('gift-send'));
    const dialog = await screen.findByTestId('not-enough-credits');
    expect(within(dialog).getByTestId('not-enough-credits-text')).toHaveTextContent(
      text('chat.creditsLeftGift', { count: 2, price: text('chat.costCredits', { count: 5 }) }),
    );
    expect(within(dialog).getByTestId('buy-credits')).toBeVisible();
  });

  it('a visitor’s Message and Gift open the signup', async () => {
    server.use(memberAnswer());
    const { user } = await renderApp('/members/5');
    await user.click(await screen.findByTestId('gift-button'));
    expect(await screen.findByRole('dialog', { name: text('signup.title', { site: 'Amora' }) })).toBeVisible();
    expect(screen.getByTestId('message-button')).toHaveTextContent(text('member.message'));
    expect(screen.queryByTestId('profile-report')).toBeNull();
  });
});
