import type { User } from '@amora/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { userQueryKey } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { useLocale } from '@/shared/site/use-locale';

/**
 * The lowest money price of one message in the member's country (the site's `minimum_message_costs`, spec §3:
 * per country the costs in whole units of its currency, as the seed has them: 1 EUR, 4 PLN), written for the
 * locale, or null when the site has none for that country. The country is the member's profile country, else
 * the one the visitor's address points to.
 */
export function useMinimumMessagePrice(): string | null {
  const settings = useSettings();
  // The member as the session holds them (read, not observed: useUser would start a second poll of user.php).
  const user = useQueryClient().getQueryData<User | null>(userQueryKey) ?? null;
  const locale = useLocale();
  const country = user?.profile?.country ?? settings.geoip_country;
  const cost = country ? settings.minimum_message_costs[country] : undefined;
  if (!cost) return null;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: cost.currency,
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    }).format(cost.costs);
  } catch {
    return null;
  }
}
