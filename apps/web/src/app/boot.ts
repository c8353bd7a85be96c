import { isLocale, LOCALE_COOKIE, type Locale, localizePath, type Settings, splitLocalePath } from '@amora/contracts/core';
import type { QueryClient } from '@tanstack/react-query';
import type { BootData } from '@/lib/boot-data';
import { readCookie } from '@/lib/cookies';
import { fetchUser, userQueryKey } from '@/shared/session/user';
import { fetchSettings, settingsQueryKey } from '@/shared/site/api/get-settings';

/**
 * Boot before the first render: the settings (they may set the language cookie from the site's domain
 * language), then the redirect of an unprefixed path to the remembered language, then the member, into the
 * query cache. With the page's data block (lib/boot-data.ts) in the language the app ends up in, nothing is
 * asked for: the server already answered settings.php and user.php and sent the catalogue. Answers the language
 * and, when the page brought them, its common messages.
 */
export async function prepareBoot(
  queryClient: QueryClient,
  embedded: BootData | null,
): Promise<{ locale: Locale; messages: Record<string, unknown> | undefined }> {
  const path = splitLocalePath(window.location.pathname);
  let locale: Locale = path.locale;
  const userPromise = embedded ? Promise.resolve(embedded.user) : fetchUser().catch(() => null);
  let settings: Settings = embedded ? embedded.settings : await fetchSettings(locale);
  const remembered = readCookie(LOCALE_COOKIE);
  if (!path.prefixed && isLocale(remembered) && remembered !== locale && settings.languages.includes(remembered)) {
    window.history.replaceState(null, '', localizePath(path.rest, remembered) + window.location.search + window.location.hash);
    locale = remembered;
  }
  const fits = embedded?.locale === locale;
  if (!fits && (embedded || locale !== path.locale)) settings = await fetchSettings(locale);
  queryClient.setQueryData(settingsQueryKey(locale), settings);
  queryClient.setQueryData(userQueryKey, await userPromise);
  return { locale, messages: fits ? embedded?.messages : undefined };
}
