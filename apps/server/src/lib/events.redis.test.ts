import { randomBytes } from 'node:crypto';
import type { AppEvent } from '@amora/contracts';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLog, recordEvents } from '../test/events';
import { createEventBus, type EventBus } from './events';

// Two "processes": two buses, each with its own Redis connections, on one channel (PostgreSQL run with Redis).
const redisUrl = process.env.AMORA_TEST_DB === 'postgres' ? process.env.TEST_REDIS_URL : undefined;

const like = (likerProfileId: number): AppEvent => ({
  type: 'like.created',
  siteId: 1,
  likerProfileId,
  likedProfileId: 2,
  source: 'search',
});

describe.skipIf(!redisUrl)('the event bus over Redis', () => {
  const opened: { bus: EventBus; redis: Redis }[] = [];
  const channel = () => `amora:test:${randomBytes(4).toString('hex')}:events`;

  async function processOn(name: string, log = memoryLog()) {
    const redis = new Redis(redisUrl as string, { maxRetriesPerRequest: 2 });
    const bus = createEventBus({ redis, channel: name, log });
    await bus.ready();
    opened.push({ bus, redis });
    return { bus, redis, log };
  }

  afterEach(async () => {
    for (const { bus, redis } of opened.splice(0)) {
      await bus.close();
      redis.disconnect();
    }
  });

  it("hands one process's event to another, and to its own handlers exactly once", async () => {
    const name = channel();
    const a = await processOn(name);
    const b = await processOn(name);
    const atA = recordEvents(a.bus, 'like.created');
    const atB = recordEvents(b.bus, 'like.created');

    a.bus.publish(like(11));
    await atB.next((e) => e.likerProfileId === 11);
    // B answers; Redis hands A's subscriber its own event before B's, so once B's is in, A's echo was seen.
    b.bus.publish(like(12));
    await atA.next((e) => e.likerProfileId === 12);
    await Promise.all([a.bus.idle(), b.bus.idle()]);

    expect(atA.seen.map((e) => e.likerProfileId)).toEqual([11, 12]);
    expect(atB.seen.map((e) => e.likerProfileId)).toEqual([11, 12]);
    expect(atB.seen[0]).toEqual(like(11));
  });

  it('drops and logs a payload that is not a valid event, and goes on receiving', async () => {
    const name = channel();
    const b = await processOn(name);
    const atB = recordEvents(b.bus, 'like.created');
    const raw = new Redis(redisUrl as string);
    try {
      await raw.publish(name, 'not json');
      await raw.publish(name, JSON.stringify({ origin: 'x', event: { type: 'like.created', siteId: 1 } }));
      await raw.publish(name, JSON.stringify({ origin: 'x', event: { type: 'account.hacked', siteId: 1 } }));
      await raw.publish(name, JSON.stringify({ event: like(5) }));
      await raw.publish(name, JSON.stringify({ origin: 'x', event: { ...like(6), likerProfileId: -1 } }));
      await raw.publish(name, JSON.stringify({ origin: 'x', event: like(7) }));
    } finally {
      raw.disconnect();
    }
    await atB.next((e) => e.likerProfileId === 7);
    await b.bus.idle();
    expect(atB.seen).toEqual([like(7)]);
    expect(b.log.lines.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'event dropped: not JSON'],
      ...Array.from({ length: 4 }, () => ['warn', 'event dropped: not a valid event']),
    ]);
  });

  it('after its connection to Redis was lost, says events may have been missed, and receives again', async () => {
    const name = channel();
    const a = await processOn(name);
    const b = await processOn(name);
    let missed = 0;
    b.bus.onMissed(() => {
      missed++;
    });
    const atB = recordEvents(b.bus, 'like.created');
    // Have Redis close both buses' subscriber connections (each is named after its channel).
    const list = (await a.redis.client('LIST')) as string;
    const ids = list
      .split('\n')
      .filter((line) => line.includes(` name=${name}:subscriber `))
      .map((line) => /\bid=(\d+)/.exec(line)?.[1]);
    expect(ids).toHaveLength(2);
    for (const id of ids) await a.redis.client('KILL', 'ID', String(id));
    await waitFor(() => missed > 0);
    // Resubscribed: events flow again.
    let received = false;
    for (let i = 0; i < 50 && !received; i++) {
      a.bus.publish(like(100 + i));
      received = await atB
        .next(() => true, 100)
        .then(
          () => true,
          () => false,
        );
    }
    expect(received).toBe(true);
    expect(missed).toBe(1);
  });

  it('says events may have been missed only once it receives again: an event published then arrives', async () => {
    const name = channel();
    const a = await processOn(name);
    const b = await processOn(name);
    const atB = recordEvents(b.bus, 'like.created');
    // What a cache or a live socket does when told: fetch what it missed, and count on the events after that.
    b.bus.onMissed(() => a.bus.publish(like(200)));
    const list = (await a.redis.client('LIST')) as string;
    const ids = list
      .split('\n')
      .filter((line) => line.includes(` name=${name}:subscriber `))
      .map((line) => /\bid=(\d+)/.exec(line)?.[1] as string);
    expect(ids).toHaveLength(2);
    for (const id of ids) await a.redis.client('KILL', 'ID', id);
    expect(await atB.next((e) => e.likerProfileId === 200, 5_000)).toEqual(like(200));
  });
});

async function waitFor(condition: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
