import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { createGracefulStop, DEFAULT_DRAIN_MS, drainMsOf } from './graceful-stop';

/** One GET on a connection of its own (no keep-alive): status and body, or the connection's error. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('SHUTDOWN_DRAIN_MS', () => {
  it('is one second unless set, 0 turns the drain off, and anything but milliseconds is refused', () => {
    expect(drainMsOf(undefined)).toBe(DEFAULT_DRAIN_MS);
    expect(drainMsOf('')).toBe(DEFAULT_DRAIN_MS);
    expect(drainMsOf('0')).toBe(0);
    expect(drainMsOf('15000')).toBe(15_000);
    expect(() => drainMsOf('2s')).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(() => drainMsOf('-1')).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(() => drainMsOf('700000')).toThrow(/SHUTDOWN_DRAIN_MS/);
  });
});

describe('the graceful stop', () => {
  it('answers 503 on /health/ready at once, lets the request in flight finish, then refuses new connections', async () => {
    let entered = false;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    t = await createTestApp(
      {},
      {
        beforeReady(app) {
          // A request that is still running when the stop begins.
          app.get('/test/slow', { config: { anyHost: true } }, async () => {
            entered = true;
            await gate;
            return { done: true };
          });
        },
      },
    );
    const { app, ctx } = t;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    expect((await get(port, '/health/ready')).status).toBe(200);

    let runtimeClosed = 0;
    const graceful = createGracefulStop(app, {
      drainMs: 300,
      graceMs: 5_000,
      jobs: ctx.jobs,
      closeRuntime: async () => {
        runtimeClosed++;
      },
    });
    const inFlight = get(port, '/test/slow');
    await expect.poll(() => entered).toBe(true);
    let stopped = false;
    const stopping = graceful.stop('SIGTERM').then(() => {
      stopped = true;
    });

    // The drain: still serving, but not ready, so the load balancer sends no more.
    const ready = await get(port, '/health/ready');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'stopping' });
    expect((await get(port, '/health/live')).status).toBe(200);

    // After the drain the stop waits for the request in flight, the app still whole (the payment sandbox calls
    // its own process in process).
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(stopped).toBe(false);
    expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ done: true });
    // A second signal while it runs is the same stop.
    await graceful.stop('SIGINT');
    await stopping;
    expect(runtimeClosed).toBe(1);
    // Then no new connections.
    await expect(get(port, '/health/live')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('cuts a request still running after the grace time, so the process can exit', async () => {
    t = await createTestApp(
      {},
      {
        beforeReady(app) {
          app.get('/test/hung', { config: { anyHost: true } }, () => new Promise(() => {}));
        },
      },
    );
    const { app, ctx } = t;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const graceful = createGracefulStop(app, { drainMs: 0, graceMs: 200, jobs: ctx.jobs, closeRuntime: async () => {} });
    const hung = get(port, '/test/hung').then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await graceful.stop('SIGTERM');
    expect(await hung).toBe('ECONNRESET');
  });
});
