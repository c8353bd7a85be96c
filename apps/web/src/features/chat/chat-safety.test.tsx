import {
  type ChatsResponse,
  chatReportResponseSchema,
  chatsResponseSchema,
  type Message,
  messagesResponseSchema,
  okResponseSchema,
} from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { contractJson } from '@/testing/contract';
import { settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { live, server } from '@/testing/server';
import { text } from '@/testing/text';
import { lastSeenSeq } from './components/chat-safety-context';

const card = (id: number, name: string, isFictional = false) => ({
  id,
  name,
  age: 30,
  city: 'Utrecht',
  country: 'NL',
  thumb_url: null,
  is_fictional: isFictional,
  is_premium: false,
});

const chats: ChatsResponse = {
  chats: [
    {
      conversation: { id: 1, last_seq: 3, updated_at: '2026-11-25T10:00:00.000Z' },
      profile: card(101, 'Noor'),
      num_unread_messages: 0,
      last_message: null,
      blocked: null,
    },
  ],
  num_unread_messages: 0,
};

function message(seq: number, overrides: Partial<Message> = {}): Message {
  return {
    id: 500 + seq,
    conversation_id: 1,
    seq,
    sender_profile_id: 101,
    from_me: false,
    kind: 'text',
    body: `message ${seq}`,
    status: 'sent',
    price: 0,
    client_id: null,
    created_at: `2026-11-25T10:0${seq}:00.000Z`,
    ...overrides,
  };
}
const mine = (seq: number) => message(seq, { from_me: true, sender_profile_id: 1, client_id: `client-${seq}-abc` });

/** Conversation 1 with Noor (or a fictional Mia): messages.php, chat-read.php and chats.php. */
function answerConversation(messages: Message[], { partnerReadSeq = null as number | null, isFictional = false } = {}) {
  server.use(
    http.get('*/api/chats.php', () => contractJson(chatsResponseSchema, chats)),
    http.get('*/api/messages.php', () =>
      contractJson(messagesResponseSchema, {
        conversation: { id: 1, last_seq: messages.length },
        profile: isFictional ? card(101, 'Mia', true) : card(101, 'Noor'),
        blocked: null,
        messages,
        has_more_after: false,
        has_more_before: false,
        history_hidden: false,
        partner_read_seq: partnerReadSeq,
      }),
    ),
    http.post('*/api/chat-read.php', () => contractJson(okResponseSchema, { ok: true })),
  );
}

/** The live channel: opened, 'ready' sent; frames the page sends are kept. */
function openLive() {
  const sent: unknown[] = [];
  let sendFrame: (frame: object) => void = () => {};
  server.use(
    live.addEventListener('connection', ({ client }) => {
      sendFrame = (frame) => client.send(JSON.stringify(frame));
      client.addEventListener('message', (event) => {
        const frame = JSON.parse(String(event.data)) as { type: string };
        // The page's presence frames (it is visible) are not what these tests look at.
        if (frame.type !== 'presence') sent.push(frame);
      });
      sendFrame({ type: 'ready' });
    }),
  );
  return { sent, send: (frame: object) => sendFrame(frame) };
}

describe('reporting from the chat', () => {
  it("reports one of the partner's messages with a reason and a note, and confirms with the reference", async () => {
    answerConversation([message(1), mine(2)]);
    const reports: unknown[] = [];
    server.use(
      http.post('*/api/chat-report.php', async ({ request }) => {
        reports.push(await request.json());
        return contractJson(chatReportResponseSchema, { ok: true, reference: 'C-ABCD2345' });
      }),
    );
    // A touch screen: no hover.
    const matchMedia = window.matchMedia.bind(window);
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => {
      const list = matchMedia(query);
      if (query === '(hover: hover)') Object.defineProperty(list, 'matches', { value: false });
      return list;
    });
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    const [theirs, own] = await screen.findAllByTestId('chat-message');
    expect(within(own).queryByTestId('chat-report-message')).toBeNull();
    expect(within(own).queryByTestId('chat-message-menu')).toBeNull();
    // A touch screen (no hover): the report is in the message's "⋯" menu, not a link under each message.
    expect(within(theirs).queryByTestId('chat-report-message')).toBeNull();
    await user.click(within(theirs).getByRole('button', { name: text('chat.messageOptions') }));
    await user.click(within(theirs).getByTestId('chat-report-message'));
    const dialog = await screen.findByTestId('report-dialog');
    expect(within(dialog).getByRole('heading')).toHaveTextContent(text('chatSafety.report.titleMessage'));
    const submit = within(dialog).getByTestId('report-submit');
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByLabelText(text('chatSafety.report.reasons.harassment')));
    await user.type(within(dialog).getByLabelText(text('chatSafety.report.note')), 'Rude after hello');
    await user.click(submit);
    const done = await within(dialog).findByTestId('report-done');
    expect(done).toHaveTextContent(text('chatSafety.report.done'));
    expect(done).toHaveTextContent(text('chatSafety.report.reference', { reference: 'C-ABCD2345' }));
    expect(reports).toEqual([{ conversation: 1, message: 501, reason: 'harassment', text: 'Rude after hello' }]);
    await user.click(within(dialog).getByTestId('report-close'));
    await waitFor(() => expect(screen.queryByTestId('report-dialog')).toBeNull());
    vi.restoreAllMocks();
  });

  it('with a mouse the report is a link beside each of their messages, not a menu', async () => {
    answerConversation([message(1), mine(2)]);
    await renderApp('/chats/1', { user: userFixture() });
    const [theirs, own] = await screen.findAllByTestId('chat-message');
    expect(within(theirs).getByTestId('chat-report-message')).toHaveTextContent(text('chatSafety.report.message'));
    expect(within(theirs).queryByTestId('chat-message-menu')).toBeNull();
    expect(within(own).queryByTestId('chat-report-message')).toBeNull();
  });

  it('reports the member from the header; a refusal shows its text and the dialog stays', async () => {
    answerConversation([message(1)]);
    const reports: unknown[] = [];
    server.use(
      http.post('*/api/chat-report.php', async ({ request }) => {
        reports.push(await request.json());
        return HttpResponse.json({ error: 'not_found', message: 'This conversation could not be found' }, { status: 404 });
      }),
    );
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    await user.click(await screen.findByTestId('chat-report-member'));
    const dialog = await screen.findByTestId('report-dialog');
    expect(within(dialog).getByRole('heading')).toHaveTextContent(text('chatSafety.report.titleMember', { name: 'Noor' }));
    await user.click(within(dialog).getByLabelText(text('chatSafety.report.reasons.fake')));
    await user.click(within(dialog).getByTestId('report-submit'));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    expect(reports).toEqual([{ conversation: 1, reason: 'fake' }]);
    expect(within(dialog).queryByTestId('report-done')).toBeNull();
  });
});

describe('fictional profiles in the chat', () => {
  it("label each of the profile's messages with the site's icon and word, and warn in the header", async () => {
    answerConversation([message(1), mine(2), message(3)], { isFictional: true });
    await renderApp('/chats/1', { user: userFixture() });
    const [first, own, third] = await screen.findAllByTestId('chat-message');
    const settings = settingsFixture();
    for (const theirs of [first, third]) {
      const label = within(theirs).getByTestId('chat-fictional-label');
      expect(label).toHaveAttribute('title', settings.fictional_warning);
      expect(label).toHaveTextContent(settings.fictional_singular);
      expect(within(label).getByRole('img')).toHaveAttribute('src', settings.fictional_icon);
    }
    expect(within(own).queryByTestId('chat-fictional-label')).toBeNull();
    expect(screen.getByTestId('chat-fictional-warning')).toHaveTextContent(settings.fictional_warning);
    expect(screen.getByTestId('chat-header-fictional')).toBeInTheDocument();
  });

  it('a real member has no label', async () => {
    answerConversation([message(1)]);
    await renderApp('/chats/1', { user: userFixture() });
    const [theirs] = await screen.findAllByTestId('chat-message');
    expect(within(theirs).queryByTestId('chat-fictional-label')).toBeNull();
  });
});

describe('seen and typing', () => {
  it('"Seen" shows under my last message the partner has read, and moves with a live read frame', async () => {
    const channel = openLive();
    answerConversation([message(1), mine(2), mine(3)], { partnerReadSeq: 2 });
    await renderApp('/chats/1', { user: userFixture() });
    const seen = await screen.findByTestId('chat-seen');
    expect(seen).toHaveTextContent(text('chatSafety.seen'));
    const bubbles = screen.getAllByTestId('chat-message');
    expect(within(bubbles[1]).getByTestId('chat-seen')).toBe(seen);
    channel.send({ type: 'read', conversation: 2, seq: 3 });
    channel.send({ type: 'read', conversation: 1, seq: 3 });
    await waitFor(() => expect(within(screen.getAllByTestId('chat-message')[2]).queryByTestId('chat-seen')).not.toBeNull());
    expect(screen.getAllByTestId('chat-seen')).toHaveLength(1);
  });

  it('shows no "Seen" when receipts are off (the server gives no read sequence)', async () => {
    answerConversation([message(1), mine(2)], { partnerReadSeq: null });
    await renderApp('/chats/1', { user: userFixture() });
    await screen.findAllByTestId('chat-message');
    expect(screen.queryByTestId('chat-seen')).toBeNull();
  });

  it('shows "… is typing" on a typing frame and sends typing frames, throttled, while I type', async () => {
    const channel = openLive();
    answerConversation([message(1)]);
    const { user } = await renderApp('/chats/1', { user: userFixture() });
    await screen.findAllByTestId('chat-message');
    expect(screen.getByTestId('chat-typing')).toBeEmptyDOMElement();
    channel.send({ type: 'typing', conversation: 1 });
    await waitFor(() => expect(screen.getByTestId('chat-typing')).toHaveTextContent(text('chatSafety.typing', { name: 'Noor' })));

    await user.type(screen.getByRole('textbox', { name: text('chat.placeholder') }), 'Hello there');
    await waitFor(() => expect(channel.sent).toEqual([{ type: 'typing', conversation: 1 }]));
  });

  it('lastSeenSeq: my last message at or before the read sequence', () => {
    const messages = [message(1), mine(2), message(3), mine(4)];
    expect(lastSeenSeq(messages, null)).toBeNull();
    expect(lastSeenSeq(messages, 1)).toBeNull();
    expect(lastSeenSeq(messages, 3)).toBe(2);
    expect(lastSeenSeq(messages, 4)).toBe(4);
  });
});
