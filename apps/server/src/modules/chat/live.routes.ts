import { LIVE_CLOSE, LIVE_MAX_FRAME_BYTES, LIVE_TYPING_EVERY_MS, type LiveServerFrame, liveClientFrameSchema } from '@amora/contracts';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { isSameOrigin } from '../../plugins/client-header';
import { endpoint } from '../../plugins/endpoints';
import { markPresence } from '../notifications/notifications.service';
import { readReceiptsShared } from './chat-safety.service';
import type { LiveClient, LiveHub } from './live.hub';
import { liveConversation } from './live.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's live sockets (modules/chat/live.routes.ts). */
    live: LiveHub;
  }
}

/** Client frames allowed per socket and window; more close the socket (1008). */
const FRAMES_PER_WINDOW = 30;
const FRAME_WINDOW_MS = 10_000;

export interface LiveOptions {
  /** Milliseconds between heartbeats (LIVE_HEARTBEAT_MS by default). */
  heartbeatMs?: number;
}

const frame = (value: LiveServerFrame) => JSON.stringify(value);

/**
 * The live channel (DESIGN: chat is a durable log, the socket only a doorbell): GET /api/live upgrades to a
 * WebSocket for a member of the request's site, from a page of that site. Each process pushes the events of
 * the bus to the sockets it holds, as frames that name ids only (live.listeners.ts). Typing and read frames from
 * a member are checked (their conversation, not blocked) and raised as events, so they reach the partner on any
 * process.
 */
export async function liveRoutes(app: FastifyInstance, options: LiveOptions): Promise<void> {
  const { ctx } = app;
  const hub = app.live;

  // Before the plugin's own preClose (which closes without a code): every socket gets 1001, Going Away.
  app.addHook('preClose', (done) => {
    hub.closeAll();
    done();
  });
  // The plugin is registered in this scope only: its hooks run for the live route, not for every request.
  await app.register(websocket, { options: { maxPayload: LIVE_MAX_FRAME_BYTES, perMessageDeflate: false } });

  // The bus's events reach the sockets through the live listeners (live.listeners.ts, apps/server/src/listeners.ts).
  hub.start(options.heartbeatMs);

  /** A typing or read frame: passed on as an event when the conversation is the member's. */
  async function onFrame(client: LiveClient, data: RawData, isBinary: boolean): Promise<void> {
    const now = Date.now();
    if (now - client.frames.windowStart > FRAME_WINDOW_MS) client.frames = { windowStart: now, count: 0 };
    if (++client.frames.count > FRAMES_PER_WINDOW) {
      hub.remove(client);
      client.socket.close(LIVE_CLOSE.policy, 'too many frames');
      return;
    }
    let parsed: ReturnType<typeof liveClientFrameSchema.safeParse> | null = null;
    if (!isBinary) {
      try {
        parsed = liveClientFrameSchema.safeParse(JSON.parse(data.toString()));
      } catch {
        parsed = null;
      }
    }
    if (!parsed?.success) {
      hub.send(client, frame({ type: 'error', error: 'bad_frame' }));
      return;
    }
    const message = parsed.data;
    if (message.type === 'presence') {
      client.visible = message.visible;
      await markPresence(ctx, client.userId, message.visible);
      return;
    }
    if (message.type === 'typing') {
      // Throttled before anything is asked of the database.
      const last = client.typingAt.get(message.conversation) ?? 0;
      if (now - last < LIVE_TYPING_EVERY_MS) return;
      client.typingAt.set(message.conversation, now);
      if (client.typingAt.size > 64) client.typingAt.delete(client.typingAt.keys().next().value as number);
    }
    const conversation = await liveConversation(ctx, message.conversation, client.profileId, client.siteId);
    if (!conversation || (message.type === 'read' && message.seq > conversation.lastSeq)) {
      hub.send(client, frame({ type: 'error', error: 'not_yours' }));
      return;
    }
    const common = { siteId: client.siteId, conversationId: message.conversation, profileId: client.profileId };
    if (message.type === 'typing') {
      ctx.events.publish({ type: 'chat.typed', ...common, recipientProfileId: conversation.partnerProfileId });
    } else if (await readReceiptsShared(ctx, client.profileId, conversation.partnerProfileId)) {
      // Read receipts only when both members have them on: otherwise the partner learns nothing.
      ctx.events.publish({ type: 'chat.read', ...common, seq: message.seq, recipientProfileId: conversation.partnerProfileId });
    }
  }

  app.route({
    ...endpoint('GET /api/live'),
    websocket: true,
    handler: (socket: WebSocket, request: FastifyRequest) => {
      // Cross-site WebSocket hijacking: a browser always sends the page's Origin; it must be this scheme and host.
      const origin = request.headers.origin;
      if (origin !== undefined && !isSameOrigin(origin, request.protocol, request.host)) {
        socket.close(LIVE_CLOSE.forbiddenOrigin, 'origin not allowed');
        return;
      }
      // The request gate found the session of this site's cookie (plugins/auth.ts), or none.
      const { auth } = request;
      if (!auth || auth.user.siteId !== request.site.id || auth.profile.siteId !== request.site.id) {
        socket.close(LIVE_CLOSE.unauthenticated, 'authentication required');
        return;
      }
      const client: LiveClient = {
        socket,
        userId: auth.user.id,
        profileId: auth.profile.id,
        tokenHash: auth.tokenHash,
        siteId: request.site.id,
        alive: true,
        typingAt: new Map(),
        frames: { windowStart: Date.now(), count: 0 },
        visible: false,
      };
      socket.on('pong', () => {
        client.alive = true;
      });
      socket.on('message', (data, isBinary) => {
        client.alive = true;
        onFrame(client, data, isBinary).catch((err) => {
          request.log.error({ err }, 'live: a client frame failed');
          hub.send(client, frame({ type: 'error', error: 'bad_frame' }));
        });
      });
      socket.on('close', () => {
        hub.remove(client);
        // A visible page closed without saying it hid (a killed tab, a lost connection): the member went away.
        if (client.visible) {
          markPresence(ctx, client.userId, false).catch((err) => request.log.warn({ err }, 'live: presence not saved'));
        }
      });
      hub.add(client);
      hub.send(client, frame({ type: 'ready' }));
    },
  });
}
