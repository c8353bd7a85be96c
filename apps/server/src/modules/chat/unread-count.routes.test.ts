import { randomUUID } from 'node:crypto';
import { userResponseSchema } from '@amora/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../../test/accounts';
import { callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * The user object's num_unread_messages (the Messages badge): every answer that presents the member counts what
 * others wrote to them and they have not opened yet; opening the chat (POST chat-read.php) brings it to 0.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function unreadOf(who: Member): Promise<number> {
  const res = await callAs(t, who, 'GET', '/api/user.php');
  expect(res.statusCode, res.body).toBe(200);
  const { user } = userResponseSchema.parse(res.json());
  return user?.num_unread_messages ?? -1;
}

async function send(from: Member, target: { profile?: number; conversation?: number }, body = 'Hi there'): Promise<number> {
  const res = await callAs(t, from, 'POST', '/api/messages.php', { ...target, body, client_id: randomUUID() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().message.conversation_id as number;
}

describe('num_unread_messages in the user object', () => {
  it('rises with each message another member writes and falls to 0 when the chat is opened', async () => {
    const [reader, writer] = [await createMember(t), await createMember(t)];
    expect(await unreadOf(reader)).toBe(0);

    const conversation = await send(writer, { profile: reader.profileId }, 'Hello!');
    expect(await unreadOf(reader)).toBe(1);
    await send(writer, { conversation }, 'How is your week?');
    expect(await unreadOf(reader)).toBe(2);
    // What one writes oneself is never unread for oneself.
    expect(await unreadOf(writer)).toBe(0);
    // The login answer presents the same count.
    const loggedIn = await login(t, reader.email, reader.password, { ip: reader.ip });
    expect(loggedIn.statusCode, loggedIn.body).toBe(200);
    expect(loggedIn.json().user.num_unread_messages).toBe(2);

    const read = await callAs(t, reader, 'POST', '/api/chat-read.php', { conversation });
    expect(read.statusCode, read.body).toBe(200);
    expect(await unreadOf(reader)).toBe(0);
    // Chats with several members add up.
    const third = await createMember(t);
    const other = await send(third, { profile: reader.profileId });
    await send(third, { conversation: other });
    await send(reader, { conversation }, 'Fine, thanks!');
    expect(await unreadOf(reader)).toBe(2);
    expect(await unreadOf(writer)).toBe(1);
  });

  it('answering in a chat reads it: what the other side wrote before is no longer unread', async () => {
    const [reader, writer] = [await createMember(t), await createMember(t)];
    const conversation = await send(writer, { profile: reader.profileId }, 'Hello!');
    await send(writer, { conversation }, 'Are you there?');
    expect(await unreadOf(reader)).toBe(2);
    await send(reader, { conversation }, 'Yes, hi!');
    expect(await unreadOf(reader)).toBe(0);
    expect(await unreadOf(writer)).toBe(1);
  });

  it('is not changed by bad input or by another member opening a chat that is not theirs', async () => {
    const [reader, writer, stranger] = [await createMember(t), await createMember(t), await createMember(t)];
    const conversation = await send(writer, { profile: reader.profileId });
    expect(await unreadOf(reader)).toBe(1);

    const bad = await callAs(t, reader, 'POST', '/api/chat-read.php', { conversation: 'first' });
    expect(bad.statusCode).toBe(400);
    const foreign = await callAs(t, stranger, 'POST', '/api/chat-read.php', { conversation });
    expect(foreign.statusCode).toBe(404);
    expect(await unreadOf(reader)).toBe(1);
    expect(await unreadOf(stranger)).toBe(0);
  });
});
