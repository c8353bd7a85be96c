import { randomUUID } from 'node:crypto';
import { profiles } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callAs, createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { credit } from '../credits/credits.service';

/**
 * What a chat message costs the event bus: one event, message.created (docs/decisions.md, "Events say what
 * happened"). On PostgreSQL with Redis the PUBLISH commands on the app's Redis connection are counted; on PGlite
 * (no Redis) the events the bus would send.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const MESSAGES = 20;

it('a chat message sent through messages.php publishes one event, message.created', async () => {
  const sender = await createMember(t);
  const recipient = await createMember(t);
  const [{ siteId }] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, sender.profileId));
  await credit(t.ctx, { userId: sender.userId, siteId, amount: 10 * (MESSAGES + 5), reason: 'test' });
  const send = (target: { conversation?: number; profile?: number }) =>
    callAs(t, sender, 'POST', '/api/messages.php', { ...target, body: 'Hello there', client_id: randomUUID() });
  const first = await send({ profile: recipient.profileId });
  expect(first.statusCode, first.body).toBe(200);
  const conversation = (first.json() as { message: { conversation_id: number } }).message.conversation_id;
  await t.ctx.events.idle();

  const published: string[] = [];
  const { redis } = t.ctx;
  const restore: (() => void)[] = [];
  if (redis) {
    const publish = redis.publish.bind(redis);
    redis.publish = ((channel: string, message: string) => {
      published.push((JSON.parse(message) as { event: { type: string } }).event.type);
      return publish(channel, message);
    }) as typeof redis.publish;
    restore.push(() => {
      redis.publish = publish;
    });
  } else {
    const bus = t.ctx.events;
    const publish = bus.publish.bind(bus);
    bus.publish = (event) => {
      published.push(event.type);
      publish(event);
    };
    restore.push(() => {
      bus.publish = publish;
    });
  }
  try {
    for (let i = 0; i < MESSAGES; i++) {
      const res = await send({ conversation });
      expect(res.statusCode, res.body).toBe(200);
    }
    await t.ctx.events.idle();
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    for (const undo of restore) undo();
  }
  const perMessage = published.length / MESSAGES;
  console.log(`${redis ? 'Redis PUBLISH' : 'bus events'} per chat message: ${perMessage} (${[...new Set(published)].join(', ')})`);
  expect(published.filter((type) => type !== 'message.created')).toEqual([]);
  expect(perMessage).toBe(1);
});
