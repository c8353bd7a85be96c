import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type ConsoleLiveFrame, consoleLiveFrameSchema, STAFF_SESSION_COOKIE, type StaffRole } from '@amora/contracts';
import { expect } from 'vitest';
import { createStaff, currentCode } from '../modules/staff/staff.service';
import { AMORA, call } from './accounts';
import type { TestApp } from './harness';

export interface StaffMember {
  id: number;
  email: string;
  password: string;
  role: StaffRole;
  /** The authenticator's secret, once set up at the first sign-in. */
  secret: string;
  /** `amora_staff=<token>` of a signed-in session, for the Cookie header. */
  cookie: string;
}

/** The console cookie a response set, for the next request's Cookie header. */
export function staffCookie(res: { cookies: { name: string; value: string }[] }): string {
  const cookie = res.cookies.find((c) => c.name === STAFF_SESSION_COOKIE);
  if (!cookie?.value) throw new Error('no console cookie in the response');
  return `${STAFF_SESSION_COOKIE}=${cookie.value}`;
}

/**
 * A staff member of `role`, signed in through the console's API as a person would: the password, then setting
 * up the authenticator with its first code. Each sign-in takes the next 30-second step of the app's clock, so a
 * code is never used twice.
 */
export async function createStaffMember(t: TestApp, role: StaffRole): Promise<StaffMember> {
  const email = `staff-${randomBytes(4).toString('hex')}@console.example`;
  const { staff, password } = await createStaff(t.ctx, { staffId: null, ip: '' }, { email, name: `Staff ${role}`, role });
  const first = await call(t, 'POST', '/api/console/login', { email, password });
  expect(first.statusCode, first.body).toBe(200);
  const secret = first.json().enroll.secret as string;
  const cookie = staffCookie(first);
  const second = await call(t, 'POST', '/api/console/login/second-factor', { code: await currentCode(secret, t.clock.now()) }, { cookie });
  expect(second.statusCode, second.body).toBe(200);
  return { id: staff.id, email, password, role, secret, cookie };
}

/** A call to the console's API as that staff member (or as nobody). */
export function callAsStaff(
  t: TestApp,
  who: StaffMember | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return call(t, method, url, payload, { cookie: who?.cookie });
}

/** An open console stream (Server-Sent Events) read frame by frame, as a browser's EventSource reads it. */
export interface ConsoleStreamReader {
  status: number;
  headers: Record<string, unknown>;
  /** Every frame received so far, in order. */
  frames: ConsoleLiveFrame[];
  /** The first frame (already or within `ms`) for which `match` holds. */
  next(match?: (frame: ConsoleLiveFrame) => boolean, ms?: number): Promise<ConsoleLiveFrame>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Closes it from the client side (the browser tab goes away). */
  close(): void;
}

/**
 * Opens a console stream (`url`, GET) as that staff member (or nobody) through inject, reading its answer as a
 * stream: a refused call answers its status with no frames.
 */
export async function openConsoleStream(t: TestApp, who: StaffMember | null, url: string): Promise<ConsoleStreamReader> {
  const abort = new AbortController();
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { host: AMORA, accept: 'text/event-stream', ...(who ? { cookie: who.cookie } : {}) },
    remoteAddress: '10.250.0.1',
    payloadAsStream: true,
    signal: abort.signal,
  });
  const frames: ConsoleLiveFrame[] = [];
  const waiters = new Set<{ match: (frame: ConsoleLiveFrame) => boolean; resolve: (frame: ConsoleLiveFrame) => void }>();
  const body = res.stream() as Readable;
  let buffered = '';
  body.setEncoding('utf8');
  body.on('data', (chunk: string) => {
    buffered += chunk;
    let cut = buffered.indexOf('\n\n');
    while (cut >= 0) {
      const event = buffered.slice(0, cut);
      buffered = buffered.slice(cut + 2);
      cut = buffered.indexOf('\n\n');
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (!data) continue;
      const frame = consoleLiveFrameSchema.parse(JSON.parse(data));
      frames.push(frame);
      for (const waiter of waiters) {
        if (!waiter.match(frame)) continue;
        waiters.delete(waiter);
        waiter.resolve(frame);
      }
    }
  });
  const ended = new Promise<void>((resolve) => {
    body.on('end', resolve);
    body.on('close', resolve);
    body.on('error', () => resolve());
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    frames,
    ended,
    next(match = () => true, ms = 5_000) {
      const found = frames.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching frame within ${ms} ms (seen: ${JSON.stringify(frames)})`));
        }, ms);
        const waiter = {
          match,
          resolve: (frame: ConsoleLiveFrame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        };
        waiters.add(waiter);
      });
    },
    close: () => abort.abort(),
  };
}
