import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { appLogger } from '../lib/logger';
import { decorateStartTime, logsOnItsOwn, requestLogging, SLOW_MS, stampRequest } from './request-log';

describe('logsOnItsOwn', () => {
  it('writes out changes, errors and slow requests, and counts fast successful reads', () => {
    expect(logsOnItsOwn('POST', 200, 1)).toBe(true);
    expect(logsOnItsOwn('DELETE', 204, 1)).toBe(true);
    expect(logsOnItsOwn('GET', 404, 1)).toBe(true);
    expect(logsOnItsOwn('GET', 500, 1)).toBe(true);
    expect(logsOnItsOwn('GET', 200, SLOW_MS)).toBe(true);
    expect(logsOnItsOwn('GET', 200, 3)).toBe(false);
    expect(logsOnItsOwn('HEAD', 304, 3)).toBe(false);
  });
});

describe('request log', () => {
  it('writes one line per change or error, without the query, and a summary of reads when it closes', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logging = requestLogging(appLogger(pino({ level: 'info' }, stream)));
    const app = Fastify(logging.options) as unknown as FastifyInstance;
    logging.useLogger(app);
    decorateStartTime(app);
    app.addHook('onRequest', (request, _reply, done) => {
      stampRequest(request);
      done();
    });
    app.get('/api/read.php', async () => ({ ok: true }));
    app.post('/api/write.php', async (request) => {
      request.log.info('handled');
      return { ok: true };
    });
    // Another app in the same process: its answers are not this log's.
    const other = Fastify({ logger: false });
    other.get('/api/read.php', async () => ({ ok: true }));
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const otherBase = await other.listen({ port: 0, host: '127.0.0.1' });

    for (let i = 0; i < 3; i++) await (await fetch(`${base}/api/read.php?x=1`)).text();
    await (await fetch(`${otherBase}/api/read.php`)).text();
    await (await fetch(`${base}/api/write.php?token=secret-one-time-token`, { method: 'POST' })).text();
    await (await fetch(`${base}/api/missing.php`)).text();
    await other.close();
    await app.close();

    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/write.php', status: 200, ms: expect.any(Number), reqId: expect.any(String) }),
      expect.objectContaining({ method: 'GET', path: '/api/missing.php', status: 404 }),
    ]);
    // A line the route writes carries the same request id as the request's own line.
    const handled = lines.find((l) => l.msg === 'handled');
    expect(handled?.reqId).toBe(requests[0]?.reqId);
    expect(JSON.stringify(lines)).not.toContain('secret-one-time-token');
    const summary = lines.find((l) => l.msg === 'reads') as { routes: Record<string, { count: number }> };
    expect(summary.routes).toEqual({ 'GET /api/read.php': expect.objectContaining({ count: 3 }) });
    // The app's own log is ours too (Fastify's listening line went through it).
    expect(lines.some((l) => String(l.msg).startsWith('Server listening at'))).toBe(true);
  });
});

describe('app logger', () => {
  const capture = (level: string) => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    return { lines, log: appLogger(pino({ level }, stream)) };
  };

  it('gives a child its bindings only when it writes, and drops lines below the level', () => {
    const { lines, log } = capture('info');
    const child = log.child({ reqId: 'req-7' });
    child.debug('not written');
    child.info({ a: 1 }, 'written');
    child.child({ step: 'two' }).warn('nested');
    log.error('root');
    expect(lines).toEqual([
      expect.objectContaining({ reqId: 'req-7', a: 1, msg: 'written', level: 30 }),
      expect.objectContaining({ reqId: 'req-7', step: 'two', msg: 'nested', level: 40 }),
      expect.objectContaining({ msg: 'root', level: 50 }),
    ]);
    expect(lines[2]).not.toHaveProperty('reqId');
  });

  it('honours a level given to the child and a level changed later', () => {
    const { lines, log } = capture('info');
    const quiet = log.child({ reqId: 'q' }, { level: 'error' });
    expect(quiet.level).toBe('error');
    quiet.info('dropped');
    quiet.error('kept');
    log.level = 'debug';
    log.debug('now written');
    expect(lines.map((l) => l.msg)).toEqual(['kept', 'now written']);
  });
});
