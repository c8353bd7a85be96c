import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { server } from './server';

// The first render of a lazy page transforms its module: on a busy machine that takes longer than 1 s.
configure({ asyncUtilTimeout: 5_000 });

/** Requests no handler answered, and handlers that threw (an answer that broke its contract), in this test. */
const problems: string[] = [];

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  server.events.on('request:unhandled', ({ request }) => {
    problems.push(`no handler for ${request.method} ${request.url}`);
  });
  server.events.on('unhandledException', ({ request, error }) => {
    problems.push(`${request.method} ${request.url}: ${error.message}`);
  });
  // The real loader of lib/i18n.ts, with the English catalogues of packages/i18n: texts in tests are real.
  await initI18n('en');
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  server.resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  // Cookies the app wrote (the entry warning's dismissal, the language) end with the test, like its storage.
  for (const cookie of document.cookie.split('; ').filter(Boolean)) {
    // biome-ignore lint/suspicious/noDocumentCookie: expiring the test's cookies
    document.cookie = `${cookie.split('=')[0]}=; Max-Age=0; Path=/`;
  }
  const seen = problems.splice(0);
  expect(seen, 'API calls the test answered wrongly or not at all').toEqual([]);
});

afterAll(() => {
  server.close();
});
