import {
  chatsResponseSchema,
  GIFTS,
  ICEBREAKER_COUNT,
  type Message,
  messageSchema,
  messagesResponseSchema,
  okResponseSchema,
  sendMessageResponseSchema,
} from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractJson } from '@/testing/contract';
import { chatMessageFixture as message, settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { live, server } from '@/testing/server';
import { text } from '@/testing/text';

const noor = { id: 101, name: 'Noor', age: 30, city: 'Utrecht', country: 'NL', thumb_url: null, is_fictional: false, is_premium: false };

function answerConversation(messages: Message[]) {
  server.use(
    http.get('*/api/messages.php', () =>
      contractJson(messagesResponseSchema, {
        conversation: { id: 1, last_seq: messages.length },
        profile: noor,
        blocked: null,
        messages,
        has_more_after: false,
        has_more_before: false,
        history_hidden: false,
      }),
    ),
    http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
    http.get('*/api/chats.php', () => contractJson(chatsResponseSchema, { chats: [], num_unread_messages: 0 })),
  );
}

describe('gifts, photos and icebreakers in the chat', () => {
  it('the gift picker shows the twelve gifts and their price, and sends the chosen one once under a retry', async () => {
    answerConversation([message(1)]);
    const sends: { gift?: string; client_id: string; conversation?: number }[] = [];
    server.use(
      http.post('*/api/messages.php', async ({ request }) => {
        const input = (await request.json()) as { gift?: string; client_id: string; conversation?: number };
        sends.push(input);
        if (sends.length === 1) return HttpResponse.json({ error: 'internal_error', message: 'Oops' }, { status: 500 });
        return contractJson(sendMessageResponseSchema, {
          message: message(2, { from_me: true, kind: 'gift', body: '', gift: 'teddy', price: 5, client_id: input.client_id }),
          credits: 15,
        });
      }),
    );
    const { user } = await renderApp('/chats/1', { user: userFixture(), settings: settingsFixture({ gift_credits: 5 }) });
    await user.click(await screen.findByTestId('chat-gift-button'));
    const picker = await screen.findByTestId('gift-picker');
    expect(within(picker).getByRole('heading', { name: text('chat.giftTitle', { name: 'Noor' }) })).toBeVisible();
    expect(within(picker).getAllByRole('button', { pressed: false })).toHaveLength(GIFTS.length);
    expect(within(picker).getByTestId('gift-price')).toHaveTextContent(text('chat.giftPrice', { count: 5 }));
    expect(within(picker).getByTestId('gift-send')).toBeDisabled();
    await user.click(within(picker).getByTestId('gift-teddy'));
    expect(within(picker).getByTestId('gift-teddy')).toHaveAttribute('aria-pressed', 'true');
    expect(within(picker).getByTestId('gift-teddy')).toHaveTextContent(text('chat.gifts.teddy'));
    await user.click(within(picker).getByTestId('gift-send'));
    expect(await within(picker).findByRole('alert')).toBeVisible();
    await user.click(within(picker).getByTestId('gift-send'));
    await waitFor(() => expect(screen.queryByTestId('gift-picker')).toBeNull());
    expect(sends).toHaveLength(2);
    expect(sends[0]).toMatchObject({ conversation: 1, gift: 'teddy' });
    expect(sends[1].client_id).toBe(sends[0].client_id);
    const bubble = await screen.findByTestId('chat-gift');
    expect(bubble).toHaveTextContent(text('chat.gifts.teddy'));
    expect(bubble.querySelector('svg[data-gift="teddy"]')).not.toBeNull();
  });

  it('a photo I was sent is blurred until I choose to see it; the reveal is asked of the server and then shown sharp', async () => {
    const photo = message(2, {
      id: 77,
      kind: 'photo',
      body: '',
      photo: { width: 400, height: 600, revealed: false, url: '/api/chat-photo.php?message=77&v=blur' },
    });
    answerConversation([message(1), photo]);
    const reveals: number[] = [];
    server.use(
      http.post('*/api/chat-photo-reveal.php', async ({ request }) => {
        reveals.push(((await request.json()) as { message: number }).message);
        return contractJson(z.object({ message: messageSchema }), {
          message: { ...photo, photo: { width: 400, height: 600, revealed: true, url: '/api/chat-photo.php?message=77&v=large' } },
        });
      }),
    );
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    const bubble = await screen.findByTestId('chat-photo');
    expect(bubble).toHaveAttribute('data-revealed', 'false');
    const img = bubble.querySelector('img') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/api/chat-photo.php?message=77&v=blur');
    expect(img).toHaveClass('is-blurred');
    expect(within(bubble).getByText(text('chat.photoBlurred'))).toBeVisible();
    expect(screen.queryByRole('img', { name: text('chat.photoAlt', { name: 'Noor' }) })).toBeNull();

    await user.click(within(bubble).getByTestId('chat-photo-reveal'));
    await waitFor(() => expect(bubble).toHaveAttribute('data-revealed', 'true'));
    expect(reveals).toEqual([77]);
    const sharp = screen.getByRole('img', { name: text('chat.photoAlt', { name: 'Noor' }) });
    expect(sharp.getAttribute('src')).toBe('/api/chat-photo.php?message=77&v=large');
    expect(sharp).not.toHaveClass('is-blurred');
    expect(within(bubble).queryByTestId('chat-photo-reveal')).toBeNull();
  });

  it('my own photo is shown as sent, never blurred', async () => {
    answerConversation([
      message(1, {
        from_me: true,
        kind: 'photo',
        body: '',
        price: 2,
        client_id: 'abcdefgh',
        photo: { width: 10, height: 10, revealed: true, url: '/api/chat-photo.php?message=1&v=large' },
      }),
    ]);
    await renderApp('/chats/1', { user: userFixture() });
    const bubble = await screen.findByTestId('chat-photo');
    expect(within(bubble).getByRole('img', { name: text('chat.photoAltMine') })).not.toHaveClass('is-blurred');
    expect(within(bubble).queryByTestId('chat-photo-reveal')).toBeNull();
  });

  it('my photo says "Opened" once the partner chose to see it: from the messages call, or live when it happens', async () => {
    const photo = (id: number, opened?: boolean) =>
      message(id, {
        from_me: true,
        kind: 'photo',
        body: '',
        price: 2,
        client_id: `abcdefgh${id}`,
        photo: { width: 10, height: 10, revealed: true, url: `/api/chat-photo.php?message=${id}&v=large`, opened },
      });
    answerConversation([photo(1, true), photo(2, false), photo(3)]);
    let sendFrame: (frame: object) => void = () => {};
    server.use(
      live.addEventListener('connection', ({ client }) => {
        sendFrame = (frame) => client.send(JSON.stringify(frame));
        sendFrame({ type: 'ready' });
      }),
    );
    await renderApp('/chats/1', { user: userFixture() });
    await waitFor(() => expect(screen.getAllByTestId('chat-photo')).toHaveLength(3));
    const openedIn = () => screen.getAllByTestId('chat-message').map((m) => within(m).queryByTestId('chat-photo-opened') !== null);
    expect(openedIn()).toEqual([true, false, false]);
    expect(screen.getByTestId('chat-photo-opened')).toHaveTextContent(text('chat.photoOpened'));
    // Another conversation's frame changes nothing; this one's marks the photo it names.
    sendFrame({ type: 'opened', conversation: 2, message: 2 });
    sendFrame({ type: 'opened', conversation: 1, message: 2 });
    await waitFor(() => expect(openedIn()).toEqual([true, true, false]));
  });

  it('an empty chat offers icebreakers; tapping one fills the composer, and it is sent as a message', async () => {
    answerConversation([]);
    let sent: { body?: string } | null = null;
    server.use(
      http.post('*/api/messages.php', async ({ request }) => {
        sent = (await request.json()) as { body?: string; client_id: string };
        return contractJson(sendMessageResponseSchema, {
          message: message(1, { from_me: true, body: sent.body ?? '', price: 1, client_id: 'abcdefgh' }),
          credits: 9,
        });
      }),
    );
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    const icebreakers = await screen.findByTestId('icebreakers');
    expect(within(icebreakers).getAllByRole('button')).toHaveLength(ICEBREAKER_COUNT);
    await user.click(within(icebreakers).getByRole('button', { name: text('chat.icebreakers.3') }));
    const box = screen.getByRole('textbox', { name: text('chat.placeholder') });
    expect(box).toHaveValue(text('chat.icebreakers.3'));
    await user.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(sent).toMatchObject({ body: text('chat.icebreakers.3') }));
    await waitFor(() => expect(screen.queryByTestId('icebreakers')).toBeNull());
  });

  it('the composer shows the lowest money price of a message in my country', async () => {
    answerConversation([message(1)]);
    await renderApp('/chats/1', {
      user: userFixture(),
      settings: settingsFixture({ message_credits: 2, minimum_message_costs: { NL: { costs: 1, currency: 'EUR' } } }),
    });
    const price = await screen.findByTestId('chat-price');
    expect(price).toHaveTextContent(text('chat.price', { count: 2 }));
    // Whole units, as the site stores them (1 EUR), written for the locale.
    expect(price).toHaveTextContent(text('chat.priceMoney', { amount: '€1' }));
  });

  it('without enough credits for a gift the dialog says so, with the lowest money price of a message', async () => {
    answerConversation([message(1)]);
    server.use(
      http.post('*/api/messages.php', () =>
        HttpResponse.json(
          {
            error: 'not_enough_credits',
            message: 'Not enough credits to send this message',
            credits: 3,
            price: 5,
            message_key: 'chat.errors.notEnoughCredits',
          },
          { status: 402 },
        ),
      ),
    );
    const { user } = await renderApp('/chats/1', {
      user: userFixture(),
      settings: settingsFixture({ gift_credits: 5, minimum_message_costs: { NL: { costs: 4, currency: 'EUR' } } }),
    });
    await user.click(await screen.findByTestId('chat-gift-button'));
    await user.click(await screen.findByTestId('gift-rose'));
    await user.click(screen.getByTestId('gift-send'));
    const dialog = await screen.findByTestId('not-enough-credits');
    expect(screen.queryByTestId('gift-picker')).toBeNull();
    expect(within(dialog).getByTestId('not-enough-credits-text')).toHaveTextContent(text('chat.priceMoney', { amount: '€4' }));
  });
});
