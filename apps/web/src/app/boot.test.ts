import { LOCALE_COOKIE, type User } from '@amora/contracts/core';
import { loadCatalogue } from '@amora/i18n';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOT_DATA_ID, type BootData, takeBootData } from '@/lib/boot-data';
import { writeCookie } from '@/lib/cookies';
import { i18next, initI18n } from '@/lib/i18n';
import { userQueryKey } from '@/shared/session/user';
import { settingsQueryKey } from '@/shared/site/api/get-settings';
import { settingsFixture } from '@/testing/fixtures';
import { createTestQueryClient } from '@/testing/render';
import { server } from '@/testing/server';
import { prepareBoot } from './boot';

/** The URLs the boot asked for, in this test. */
let asked: string[] = [];
const record = ({ request }: { request: Request }) => {
  asked.push(new URL(request.url).pathname);
};
beforeEach(() => {
  asked = [];
  server.events.on('request:start', record);
});
afterEach(() => {
  server.events.removeListener('request:start', record);
  window.history.replaceState(null, '', '/');
  writeCookie(LOCALE_COOKIE, '', -1);
});

const embedded = (overrides: Partial<BootData> = {}): BootData => ({
  locale: 'de',
  settings: settingsFixture({ languages: ['de', 'en', 'fr'] }),
  // As user.php answers it; the boot passes it on as it is.
  user: { id: 7, email: 'ann@example.com', profile: { id: 9, name: 'Ann' } } as User,
  messages: loadCatalogue('de', 'common') as Record<string, unknown>,
  ...overrides,
});

describe('the boot', () => {
  it('takes the settings, the member and the messages from the page: no call to settings.php or user.php', async () => {
    window.history.replaceState(null, '', '/de/members');
    const data = embedded();
    const queryClient = createTestQueryClient();
    const { locale, messages } = await prepareBoot(queryClient, data);
    expect(locale).toBe('de');
    expect(messages).toBe(data.messages);
    expect(queryClient.getQueryData(settingsQueryKey('de'))).toEqual(data.settings);
    expect(queryClient.getQueryData(userQueryKey)).toEqual(data.user);
    expect(asked).toEqual([]);
  });

  it('follows the remembered language the page was made for, still without a call', async () => {
    window.history.replaceState(null, '', '/members?x=1');
    writeCookie(LOCALE_COOKIE, 'de', 1);
    const queryClient = createTestQueryClient();
    const { locale } = await prepareBoot(queryClient, embedded({ user: null }));
    expect(locale).toBe('de');
    expect(window.location.pathname + window.location.search).toBe('/de/members?x=1');
    expect(queryClient.getQueryData(userQueryKey)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('asks for the settings of its language when the page was made for another one, and for everything without data', async () => {
    window.history.replaceState(null, '', '/fr/members');
    const queryClient = createTestQueryClient();
    const other = await prepareBoot(queryClient, embedded());
    expect(other).toEqual({ locale: 'fr', messages: undefined });
    expect(asked).toEqual(['/api/settings.php']);
    asked = [];
    const none = await prepareBoot(createTestQueryClient(), null);
    expect(none).toEqual({ locale: 'fr', messages: undefined });
    expect(asked.sort()).toEqual(['/api/settings.php', '/api/user.php']);
  });

  it('reads the data block once, and none that does not read', () => {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = BOOT_DATA_ID;
    block.textContent = JSON.stringify(embedded()).replace(/</g, '\\u003c');
    document.head.append(block);
    expect(takeBootData()?.locale).toBe('de');
    expect(document.getElementById(BOOT_DATA_ID)).toBeNull();
    expect(takeBootData()).toBeNull();
    block.textContent = '{"locale":';
    document.head.append(block);
    expect(takeBootData()).toBeNull();
  });
});

describe('i18next from the page', () => {
  it('shows the page language at once, without fetching its catalogue', async () => {
    const instance = i18next.createInstance();
    const messages = loadCatalogue('de', 'common') as Record<string, unknown>;
    await initI18n('de', messages, instance);
    expect(instance.t('boot.home')).toBe((messages.boot as Record<string, string>).home);
    expect(asked.filter((path) => path.includes('/de/common'))).toEqual([]);
    // Another namespace still comes from its file.
    await instance.loadNamespaces('pages');
    expect(asked.some((path) => path.endsWith('/de/pages.json'))).toBe(true);
  });
});
