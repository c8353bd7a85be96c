import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logsOnItsOwn, registerRequestLog, SLOW_MS } from './request-log';

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
    const app = Fastify({
      loggerInstance: pino({ level: 'info' }, stream),
      logController: new LogController({ disableRequestLogging: true }),
    }) as unknown as FastifyInstance;
    registerRequestLog(app);
    app.get('/api/read.php', async () => ({ ok: true }));
    app.post('/api/write.php', async () => ({ ok: true }));
    await app.ready();

    for (let i = 0; i < 3; i++) await app.inject({ url: '/api/read.php?x=1' });
    await app.inject({ method: 'POST', url: '/api/write.php?token=secret-one-time-token', payload: {} });
    await app.inject({ url: '/api/missing.php' });
    await app.close();

    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/write.php', status: 200, ms: expect.any(Number) }),
      expect.objectContaining({ method: 'GET', path: '/api/missing.php', status: 404 }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-one-time-token');
    const summary = lines.find((l) => l.msg === 'reads') as { routes: Record<string, { count: number }> };
    expect(summary.routes['GET /api/read.php']).toMatchObject({ count: 3 });
  });
});
