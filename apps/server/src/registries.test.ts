import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JOBS } from './job-specs';
import { jobHandlers } from './jobs';

/**
 * One place each (docs/ARCHITECTURE.md, "An event's path" and "A job's path"): every event listener is subscribed
 * in listeners.ts, every job handler registered in jobs.ts. The shipped sources are read; tests may subscribe
 * and register what they test.
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The files (relative to apps/server/src) whose code matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  return sources(SRC)
    .filter((path) => pattern.test(readFileSync(path, 'utf8')))
    .map((path) => relative(SRC, path))
    .sort();
}

describe('one place for each', () => {
  it('event listeners are subscribed in listeners.ts only', () => {
    // `events.subscribe(`, `.onMissed(`, or a subscribe to an event type however the bus is named.
    const pattern = /\bevents\??\.(subscribe|onMissed)\(|\.subscribe\(\s*['"`][a-z]+\.[a-z-]+['"`]/;
    expect(filesMatching(pattern)).toEqual(['listeners.ts']);
  });

  it('job handlers are registered in jobs.ts only', () => {
    expect(filesMatching(/\bjobs\??\.handle\(|\.handle\(\s*['"`][a-z]+\.[a-z-]+['"`]/)).toEqual(['jobs.ts']);
  });

  it('every job of job-specs.ts has its handler', () => {
    const handlers = jobHandlers({} as never, { info() {}, warn() {} }, null);
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(JOBS).sort());
  });
});
