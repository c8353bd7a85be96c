import type { AppEvent } from '@amora/contracts';
import { sites } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLog, recordEvents } from '../test/events';
import { createTestApp, type TestApp } from '../test/harness';
import { createEventBus } from './events';
import { withTransaction } from './transaction';

const like = (likerProfileId: number): AppEvent => ({
  type: 'like.created',
  siteId: 1,
  likerProfileId,
  likedProfileId: 2,
  source: 'profile',
});

describe('the in-process event bus', () => {
  it('hands an event to the handlers of its type only, after publish has returned', async () => {
    const bus = createEventBus({ log: memoryLog() });
    const likes = recordEvents(bus, 'like.created');
    const matches = recordEvents(bus, 'match.created');
    bus.publish(like(7));
    expect(likes.seen).toEqual([]);
    await bus.idle();
    expect(likes.seen).toEqual([like(7)]);
    expect(matches.seen).toEqual([]);
    await bus.close();
  });

  it('logs what a handler throws or rejects with, and still calls the other handlers', async () => {
    const log = memoryLog();
    const bus = createEventBus({ log });
    bus.subscribe('like.created', () => {
      throw new Error('boom');
    });
    bus.subscribe('like.created', async () => {
      throw new Error('async boom');
    });
    const likes = recordEvents(bus, 'like.created');
    expect(() => bus.publish(like(1))).not.toThrow();
    await bus.idle();
    expect(likes.seen).toHaveLength(1);
    expect(log.lines.map((l) => [l.level, l.message])).toEqual([
      ['error', 'event handler failed'],
      ['error', 'event handler failed'],
    ]);
    await bus.close();
  });

  it('stops calling a handler once it unsubscribes', async () => {
    const bus = createEventBus({ log: memoryLog() });
    const likes = recordEvents(bus, 'like.created');
    bus.publish(like(1));
    await bus.idle();
    likes.stop();
    bus.publish(like(2));
    await bus.idle();
    expect(likes.seen.map((e) => e.likerProfileId)).toEqual([1]);
    await bus.close();
  });

  it('sends only the fields of the event, and refuses (logs, drops) an event that does not match its schema', async () => {
    const log = memoryLog();
    const bus = createEventBus({ log });
    const changes = recordEvents(bus, 'profile.changed');
    bus.publish({ type: 'profile.changed', siteId: 1, profileId: 3, fields: ['about'], passwordHash: 'x' } as AppEvent);
    bus.publish({ type: 'profile.changed', siteId: 0, profileId: 3, fields: [] });
    await bus.idle();
    expect(changes.seen).toEqual([{ type: 'profile.changed', siteId: 1, profileId: 3, fields: ['about'] }]);
    expect(log.lines.map((l) => l.message)).toEqual(['event not published: not a valid event']);
    await bus.close();
  });

  it('waits in idle() for handlers that are still running', async () => {
    const bus = createEventBus({ log: memoryLog() });
    let finished = false;
    bus.subscribe('site.settings-changed', async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished = true;
    });
    bus.publish({ type: 'site.settings-changed', siteId: 1 });
    await bus.idle();
    expect(finished).toBe(true);
    await bus.close();
  });

  it('delivers nothing after close, and is ready at once', async () => {
    const log = memoryLog();
    const bus = createEventBus({ log });
    await expect(bus.ready()).resolves.toBeUndefined();
    const likes = recordEvents(bus, 'like.created');
    await bus.close();
    bus.publish(like(1));
    await bus.idle();
    expect(likes.seen).toEqual([]);
    expect(log.lines.map((l) => l.message)).toEqual(['event not published: the bus is closed']);
  });
});

describe('events and units of work', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('holds an event published inside a unit of work until it commits, also from a unit that joined it', async () => {
    const changes = recordEvents(t.ctx.events, 'site.settings-changed');
    let seenInside = -1;
    await withTransaction(t.ctx, async (tx) => {
      await tx.update(sites).set({ supportPhone: '+49 1' }).where(eq(sites.id, 1));
      await withTransaction(t.ctx, async () => {
        t.ctx.events.publish({ type: 'site.settings-changed', siteId: 1 });
      });
      await t.ctx.events.idle();
      await new Promise((resolve) => setImmediate(resolve));
      seenInside = changes.seen.length;
    });
    expect(seenInside).toBe(0);
    await t.ctx.events.idle();
    expect(changes.seen).toEqual([{ type: 'site.settings-changed', siteId: 1 }]);
    changes.stop();
  });

  it('drops an event published inside a unit of work that rolls back', async () => {
    const changes = recordEvents(t.ctx.events, 'site.settings-changed');
    await expect(
      withTransaction(t.ctx, async (tx) => {
        await tx.update(sites).set({ supportPhone: '+49 2' }).where(eq(sites.id, 1));
        t.ctx.events.publish({ type: 'site.settings-changed', siteId: 1 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    t.ctx.events.publish({ type: 'site.settings-changed', siteId: 2 });
    await t.ctx.events.idle();
    expect(changes.seen).toEqual([{ type: 'site.settings-changed', siteId: 2 }]);
    changes.stop();
  });
});
