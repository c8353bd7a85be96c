import { LIVE_CLOSE, LIVE_MAX_SOCKETS, type LiveServerFrame } from '@amora/contracts';
import type { WebSocket } from 'ws';

/** A socket whose unsent frames exceed this many bytes is a slow consumer: it is dropped (it fetches on reconnect). */
const LIVE_MAX_BUFFERED_BYTES = 64 * 1024;
/** How often sockets are pinged; one that has not answered the previous ping by then is dropped. */
const LIVE_HEARTBEAT_MS = 30_000;

/** One open socket of a member in this process. */
export interface LiveClient {
  socket: WebSocket;
  userId: number;
  profileId: number;
  /** The session that opened the socket: checked again when the member's sessions change (a logout). */
  tokenHash: string;
  siteId: number;
  /** Answered the last ping (or sent something) since the last sweep. */
  alive: boolean;
  /** When each conversation's last typing frame was passed on (ms). */
  typingAt: Map<number, number>;
  /** Client frames in the current window, for the frame rate limit. */
  frames: { windowStart: number; count: number };
  /** The page said it is visible (its last presence frame): closing it means the member went away. */
  visible: boolean;
}

/**
 * The live channel's sockets in this process, by profile: every process keeps its own and each pushes the
 * events of the bus (which reach every process) to the sockets it holds. Nothing here is state another process
 * needs: a socket lost with its process reconnects elsewhere and fetches what it missed.
 */
export class LiveHub {
  private readonly byProfile = new Map<number, Set<LiveClient>>();
  /** The profile of each account with a socket here (one profile per account). */
  private readonly profileOfUser = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  /** Frames not sent because their socket was too slow (since start), for the log and the benchmark. */
  dropped = 0;

  /** Starts the heartbeat. */
  start(heartbeatMs = LIVE_HEARTBEAT_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sweep(), heartbeatMs);
    this.timer.unref();
  }

  /** Registers an open socket; past LIVE_MAX_SOCKETS for the member the oldest is closed. */
  add(client: LiveClient): void {
    let set = this.byProfile.get(client.profileId);
    if (!set) {
      set = new Set();
      this.byProfile.set(client.profileId, set);
      this.profileOfUser.set(client.userId, client.profileId);
    }
    set.add(client);
    if (set.size > LIVE_MAX_SOCKETS) {
      const oldest = set.values().next().value as LiveClient;
      this.remove(oldest);
      oldest.socket.close(LIVE_CLOSE.replaced, 'too many connections');
    }
  }

  remove(client: LiveClient): void {
    const set = this.byProfile.get(client.profileId);
    if (!set?.delete(client)) return;
    if (set.size > 0) return;
    this.byProfile.delete(client.profileId);
    this.profileOfUser.delete(client.userId);
  }

  /** The open sockets here of a member's account. */
  ofUser(userId: number): LiveClient[] {
    const profileId = this.profileOfUser.get(userId);
    return profileId === undefined ? [] : [...(this.byProfile.get(profileId) ?? [])];
  }

  /** Open sockets of a profile here (all profiles without one). */
  count(profileId?: number): number {
    if (profileId !== undefined) return this.byProfile.get(profileId)?.size ?? 0;
    let total = 0;
    for (const set of this.byProfile.values()) total += set.size;
    return total;
  }

  /** Sends a frame to every socket of `profileId` here on its site; a slow socket is dropped instead. */
  sendTo(profileId: number, siteId: number, frame: LiveServerFrame): void {
    const set = this.byProfile.get(profileId);
    if (!set) return;
    const data = JSON.stringify(frame);
    for (const client of set) {
      if (client.siteId !== siteId) continue;
      this.send(client, data);
    }
  }

  /** Sends a frame to every socket here. */
  sendAll(frame: LiveServerFrame): void {
    const data = JSON.stringify(frame);
    for (const set of [...this.byProfile.values()]) for (const client of [...set]) this.send(client, data);
  }

  /** Sends to one socket, unless it is closing or too far behind (then it is dropped). */
  send(client: LiveClient, data: string): void {
    const { socket } = client;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > LIVE_MAX_BUFFERED_BYTES) {
      this.dropped++;
      this.remove(client);
      // A close frame would wait behind what is already queued: the connection ends now.
      socket.terminate();
      return;
    }
    socket.send(data);
  }

  /**
   * The heartbeat: drops every socket that has not answered the previous ping (nor sent anything) since the
   * last sweep, and pings the others.
   */
  sweep(): void {
    for (const set of [...this.byProfile.values()]) {
      for (const client of [...set]) {
        if (!client.alive) {
          this.remove(client);
          client.socket.terminate();
          continue;
        }
        client.alive = false;
        if (client.socket.readyState === client.socket.OPEN) client.socket.ping();
      }
    }
  }

  /** Shutdown: stops the heartbeat and closes every socket with 1001, so clients reconnect to another process. */
  closeAll(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const set of [...this.byProfile.values()]) {
      for (const client of [...set]) {
        this.remove(client);
        client.socket.close(LIVE_CLOSE.goingAway, 'server shutting down');
      }
    }
  }
}
