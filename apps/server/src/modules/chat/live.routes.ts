import {
  LIVE_CLOSE,
  LIVE_MAX_FRAME_BYTES,
  LIVE_PATH,
  LIVE_TYPING_EVERY_MS,
  type LiveServerFrame,
  liveClientFrameSchema,
} from '@amora/contracts';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { isSameOrigin } from '../../plugins/client-header';
import { sessionIsOpen } from '../sessions/sessions.service';
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
/**
 * How long after a change of a member's sessions their sockets' sessions are checked: every change a member makes
 * (each message sent) raises session.revoked, so the check runs at most once a second per member, and a logout
 * closes the sockets within about a second.
 */
const SESSION_RECHECK_MS = 1_000;

export interface LiveOptions {
  /** Milliseconds between heartbeats (LIVE_HEARTBEAT_MS by default). */
  heartbeatMs?: number;
}

const frame = (value: LiveServerFrame) => JSON.stringify(value);

/**
 * The live channel (DESIGN: chat is a durable log, the socket only a doorbell): GET /api/live upgrades to a
 * WebSocket for a member of the request's site, from a page of that site. Each process pushes the events of
 * the bus (message.created, like.created, match.created, chat.typed, chat.read, chat.photo-opened; from every
 * process over Redis)
 * to the sockets it holds, as frames that name ids only. Typing and read frames from a member are checked
 * (their conversation, not blocked) and raised as events, so they reach the partner on any process.
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

  const recheck = new Map<number, NodeJS.Timeout>();
  async function checkSessions(userId: number): Promise<void> {
    for (const client of hub.ofUser(userId)) {
      if (await sessionIsOpen(ctx, client.tokenHash)) continue;
      hub.remove(client);
      client.socket.close(LIVE_CLOSE.unauthenticated, 'session ended');
    }
  }

  const unsubscribe = [
    ctx.events.subscribe('message.created', (event) => {
      const push: LiveServerFrame = { type: 'message', conversation: event.conversationId, seq: event.seq };
      hub.sendTo(event.recipientProfileId, event.siteId, push);
      hub.sendTo(event.senderProfileId, event.siteId, push);
    }),
    ctx.events.subscribe('like.created', (event) => hub.sendTo(event.likedProfileId, event.siteId, { type: 'like' })),
    ctx.events.subscribe('match.created', (event) => {
      hub.sendTo(event.profileId, event.siteId, { type: 'match', profile: event.matchedProfileId });
      hub.sendTo(event.matchedProfileId, event.siteId, { type: 'match', profile: event.profileId });
    }),
    ctx.events.subscribe('chat.typed', (event) =>
      hub.sendTo(event.recipientProfileId, event.siteId, { type: 'typing', conversation: event.conversationId }),
    ),
    // A member's sessions changed (a logout, a new password, a deletion, or any other change of theirs): their
    // sockets whose session has ended are closed. Checked once per burst of changes, not once per change.
    ctx.events.subscribe('session.revoked', (event) => {
      if (hub.ofUser(event.userId).length === 0 || recheck.has(event.userId)) return;
      const timer = setTimeout(() => {
        recheck.delete(event.userId);
        checkSessions(event.userId).catch((err) => app.log.error({ err }, 'live: checking sessions failed'));
      }, SESSION_RECHECK_MS);
      timer.unref();
      recheck.set(event.userId, timer);
    }),
    ctx.events.subscribe('chat.read', (event) =>
      hub.sendTo(event.recipientProfileId, event.siteId, { type: 'read', conversation: event.conversationId, seq: event.seq }),
    ),
    ctx.events.subscribe('chat.photo-opened', (event) =>
      hub.sendTo(event.recipientProfileId, event.siteId, { type: 'opened', conversation: event.conversationId, message: event.messageId }),
    ),
  ];
  // The Redis subscription was lost and is back: events of other processes meanwhile are gone (a message to a
  // member here among them). Every socket is told 'ready' again, so its client fetches what came after its last
  // sequences, as after a reconnection; the bus says so only once it receives again.
  unsubscribe.push(ctx.events.onMissed(() => hub.sendAll({ type: 'ready' })));
  app.addHook('onClose', async () => {
    for (const stop of unsubscribe) stop();
    for (const timer of recheck.values()) clearTimeout(timer);
    recheck.clear();
  });
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
    if (message.type === 'typing') {
      // Throttled before anything is asked of the database.
      const last = client.typingAt.get(message.conversation) ?? 0;
      if (now - last < LIVE_TYPING_EVERY_MS) return;
      client.typingAt.set(message.conversation, now);
      if (client.typingAt.size > 64) client.typingAt.delete(client.typingAt.keys().next().value as number);
    }
    const conversation = await liveConversation(ctx.db, message.conversation, client.profileId, client.siteId);
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

  app.get(LIVE_PATH, { websocket: true, schema: { hide: true } }, (socket: WebSocket, request: FastifyRequest) => {
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
    socket.on('close', () => hub.remove(client));
    hub.add(client);
    hub.send(client, frame({ type: 'ready' }));
  });
}
