// Site content other modules use: the regions of a served country (settings.php's list, the geocoder's region of a city).
import { TARGET_COUNTRIES } from '@amora/contracts';
import data from 'country-region-data/data.json' with { type: 'json' };

type Region = { code: string; name: string };
const byCountry = new Map<string, Region[]>();
for (const country of data as { countryShortCode: string; regions: { name: string; shortCode?: string }[] }[]) {
  if (!(TARGET_COUNTRIES as readonly string[]).includes(country.countryShortCode)) continue;
  byCountry.set(
    country.countryShortCode,
    country.regions.map((r) => ({ code: `${country.countryShortCode}-${r.shortCode ?? r.name}`, name: r.name })),
  );
}

/** Regions (first-level subdivisions) of a target country, from the data that country-region-data ships. */
export function regionsOf(country: string): Region[] {
  return byCountry.get(country) ?? [];
}
