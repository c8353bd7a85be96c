import type { FastifyInstance } from 'fastify';
import { liveListeners } from './modules/chat/live.listeners';
import { consoleLiveListeners } from './modules/inbox/console-live.listeners';
import { forgetAllCachedSessions, forgetCachedSessions, forgetCachedSessionsOfProfile } from './modules/sessions/sessions.service';

/**
 * Every listener of the app's events (packages/contracts/src/events.ts), in one list: the only place that calls
 * `events.subscribe` (registries.test.ts checks it). Called once by buildApp, after the routes, so every listener
 * of this process is in place before it answers; the function returned removes them (on close).
 *
 * A new listener: a function in its module that takes the event (`(event: AppEventOf<'x.y'>) => …`), and a line
 * here. It runs on a later turn, on every process (with Redis); what it throws is logged.
 */
export function registerListeners(app: FastifyInstance): () => void {
  const { events, sites } = app.ctx;
  const live = liveListeners(app.live, app.ctx, app.log);
  const consoleLive = consoleLiveListeners(app.consoleLive, app.ctx, app.log);
  const stops = [
    // The site directory reads the sites again.
    events.subscribe('site.settings-changed', () => sites.invalidate()),

    // The session cache forgets the member's sessions: they ended, or carry rows that changed.
    events.subscribe('session.ended', (event) => forgetCachedSessions(event.userId)),
    events.subscribe('account.changed', (event) => forgetCachedSessions(event.userId)),
    events.subscribe('profile.changed', (event) => forgetCachedSessionsOfProfile(event.profileId)),

    // The live channel pushes frames to this process's sockets (modules/chat/live.listeners.ts).
    events.subscribe('message.created', live.messageCreated),
    events.subscribe('like.created', live.likeCreated),
    events.subscribe('match.created', live.matchCreated),
    events.subscribe('chat.typed', live.chatTyped),
    events.subscribe('chat.read', live.chatRead),
    events.subscribe('chat.photo-opened', live.chatPhotoOpened),
    events.subscribe('session.ended', live.sessionEnded),

    // The console's live channel tells the open consoles (modules/inbox/console-live.listeners.ts).
    events.subscribe('message.created', consoleLive.messageCreated),
    events.subscribe('inbox.claim-changed', consoleLive.claimChanged),
    events.subscribe('staff.changed', consoleLive.staffChanged),

    // Events of other processes were missed (Redis was away): what is kept from them is read again.
    events.onMissed(() => sites.invalidate()),
    events.onMissed(forgetAllCachedSessions),
    events.onMissed(live.missed),
    events.onMissed(consoleLive.missed),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
