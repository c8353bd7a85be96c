import { PassThrough } from 'node:stream';
import type { ConsoleLiveFrame, StaffRole } from '@amora/contracts';

/** How often each stream gets a comment line, so proxies keep it open, and its session is checked again. */
const CONSOLE_LIVE_HEARTBEAT_MS = 25_000;
/** A stream whose unsent bytes exceed this is a slow reader: it is ended (its console reads the inbox on reconnect). */
const MAX_BUFFERED_BYTES = 64 * 1024;
/** How long a browser waits before it opens a stream again after it ended (the `retry:` field of the stream). */
const CONSOLE_LIVE_RETRY_MS = 2_000;

/** One open console stream in this process: the staff member's session, and who the route lets read it. */
export interface ConsoleStream {
  staffId: number;
  sessionId: string;
  roles: readonly StaffRole[];
  /** What Fastify sends: every write goes out as it is. */
  out: PassThrough;
}

const line = (frame: ConsoleLiveFrame) => `data: ${JSON.stringify(frame)}\n\n`;

/**
 * The console's open live streams (Server-Sent Events) in this process. Every process keeps its own and pushes the
 * bus's events (which reach every process) to those it holds; nothing here is state another process needs: a
 * stream lost with its process is opened again elsewhere, whose first frame says `ready` (read everything again).
 */
export class ConsoleLiveHub {
  private readonly streams = new Set<ConsoleStream>();
  private timer: NodeJS.Timeout | null = null;

  /**
   * Starts the heartbeat: a comment line to every stream, and `stillAllowed` asked for each (a session that ran
   * out or went idle, which no event announces), whose `false` ends it with `ended`.
   */
  start(stillAllowed: (stream: ConsoleStream) => Promise<boolean>, heartbeatMs = CONSOLE_LIVE_HEARTBEAT_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const stream of this.streams) {
        this.write(stream, ': heartbeat\n\n');
        stillAllowed(stream).then(
          (allowed) => {
            if (!allowed) this.end(stream, true);
          },
          // The database did not answer: the stream stays until the next beat.
          () => {},
        );
      }
    }, heartbeatMs);
    this.timer.unref();
  }

  /** A new stream for a signed-in staff member: its reconnection delay and `ready` go out first. */
  open(stream: Omit<ConsoleStream, 'out'>): ConsoleStream {
    const opened: ConsoleStream = { ...stream, out: new PassThrough() };
    this.streams.add(opened);
    // Fastify destroys the stream when the connection closes.
    opened.out.on('close', () => this.streams.delete(opened));
    this.write(opened, `retry: ${CONSOLE_LIVE_RETRY_MS}\n${line({ type: 'ready' })}`);
    return opened;
  }

  /** The streams open here (the metrics' live connections). */
  count(): number {
    return this.streams.size;
  }

  /** Every stream here gets the frame (every staff member who may read the inbox sees every site's). */
  sendAll(frame: ConsoleLiveFrame): void {
    if (this.streams.size === 0) return;
    const text = line(frame);
    for (const stream of this.streams) this.write(stream, text);
  }

  /** The open streams here of a staff member. */
  ofStaff(staffId: number): ConsoleStream[] {
    return [...this.streams].filter((stream) => stream.staffId === staffId);
  }

  /** Ends a stream; `ended`: its session is over, so the console signs in again rather than reconnecting. */
  end(stream: ConsoleStream, ended: boolean): void {
    if (!this.streams.delete(stream)) return;
    if (ended) stream.out.write(line({ type: 'ended' }));
    stream.out.end();
  }

  /** Shutdown: every stream ends (its browser opens one again, on another process). */
  closeAll(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const stream of [...this.streams]) this.end(stream, false);
  }

  private write(stream: ConsoleStream, text: string): void {
    if (stream.out.writableLength > MAX_BUFFERED_BYTES) {
      this.streams.delete(stream);
      stream.out.destroy();
      return;
    }
    stream.out.write(text);
  }
}
