import { findCity } from './cities';
import { coarsePosition } from './coarse';

/** A city as a profile stores it: its name, country and region, and its centre rounded (coarse.ts). */
export interface CityPlace {
  name: string;
  country: string;
  /** Our region code ('NL-NH'), or null where the city's region is not certain. */
  region: string | null;
  lat: number;
  lon: number;
}

/** The place of a city of the index (the id /api/geocode.php answered), or null for an unknown id. */
export function cityPlace(cityId: number): CityPlace | null {
  const city = findCity(cityId);
  if (!city) return null;
  const { lat, lon } = coarsePosition(city.lat, city.lon);
  return { name: city.name, country: city.country, region: city.region, lat, lon };
}
