import { distance } from 'geokdbush';

export interface Position {
  lat: number;
  lon: number;
}

function round2(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? 0 : rounded; // no -0
}

/**
 * A position rounded to 0.01° (about 1.1 km north–south). What we store is the geocoded city's centre,
 * so this only trims the package's 5 decimals; a member's own coordinates are never kept.
 */
export function coarsePosition(lat: number, lon: number): Position {
  return { lat: round2(lat), lon: round2(lon) };
}

/**
 * The distance shown between two members, in km, bucketed upward: under 5 km → 5, then the next
 * multiple of 5 up to 50, of 25 up to 200, of 100 beyond.
 *
 * Why this cannot be trilaterated: both ends are stored city centres, never where a member stands, so
 * an observer who moves (or fakes a position) learns the distance between two city centres, and only
 * to within a bucket that widens with distance. Walking around a city, or measuring from three places,
 * pins a member down to their city at best, which their profile shows anyway.
 */
export function displayDistanceKm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const km = distance(aLon, aLat, bLon, bLat);
  if (km <= 5) return 5;
  if (km <= 50) return Math.ceil(km / 5) * 5;
  if (km <= 200) return Math.ceil(km / 25) * 25;
  return Math.ceil(km / 100) * 100;
}
