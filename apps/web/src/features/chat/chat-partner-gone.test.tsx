import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

describe('/members/{id}/chat with a member who is not there', () => {
  it('says so and offers the way back to the messages and to the search (the chat layout has no top bar)', async () => {
    server.use(http.get('*/api/member.php', () => HttpResponse.json({ error: 'not_found' }, { status: 404 })));
    const { user, router } = await renderApp('/members/999/chat', { user: userFixture() });
    const gone = await screen.findByTestId('partner-gone');
    expect(within(gone).getByRole('alert')).toHaveTextContent(text('chat.errors.partnerGone'));
    expect(within(gone).getByRole('link', { name: text('chat.toSearch') })).toHaveAttribute('href', '/members');
    await user.click(within(gone).getByRole('button', { name: text('chat.back') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/chats'));
  });
});
