import { errorSchema, messagesResponseSchema, okResponseSchema } from '@amora/contracts';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

const noor = { id: 101, name: 'Noor', age: 30, city: 'Utrecht', country: 'NL', thumb_url: null, is_fictional: false, is_premium: false };

function answerEmptyChatRefusingFor(price: number) {
  server.use(
    http.get('*/api/messages.php', () =>
      contractJson(messagesResponseSchema, {
        conversation: { id: 1, last_seq: 0 },
        profile: noor,
        blocked: null,
        messages: [],
        has_more_after: false,
        has_more_before: false,
        history_hidden: false,
      }),
    ),
    http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
    http.post('*/api/messages.php', () =>
      HttpResponse.json(
        errorSchema.parse({
          error: 'not_enough_credits',
          message: 'Not enough credits to send this message',
          message_key: 'chat.errors.notEnoughCredits',
          credits: 0,
          price,
        }),
        { status: 402 },
      ),
    ),
  );
}

describe('not enough credits for a gift', () => {
  it('says what a gift costs, not that a message costs that much', async () => {
    answerEmptyChatRefusingFor(25);
    const { user } = await renderApp('/chats/1', { user: userFixture({ credits: 0 }) });
    await user.click(await screen.findByTestId('chat-gift-button'));
    await user.click(await screen.findByTestId('gift-rose'));
    await user.click(screen.getByTestId('gift-send'));
    const dialog = await screen.findByTestId('not-enough-credits');
    const said = within(dialog).getByTestId('not-enough-credits-text');
    const price = text('chat.costCredits', { count: 25 });
    expect(price).toBe('25 credits');
    expect(said).toHaveTextContent(text('chat.creditsLeftGift', { count: 0, price }));
    expect(said).not.toHaveTextContent(text('chat.creditsLeft', { count: 0, price }));
    expect(within(dialog).getByRole('link', { name: text('chat.buyCredits') })).toHaveAttribute('href', '/credits');
  });
});
