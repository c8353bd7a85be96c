import type { LanderProfile } from '../lander-types';
import { MAP_REGIONS } from './maplanding-regions';

export type MapRegionName = keyof typeof MAP_REGIONS;
type MapRegion = (typeof MAP_REGIONS)[MapRegionName];

/** At most this many pins: more would cover the map; the list under it names everyone. */
const MAX_PINS = 12;
/** The map shows at least this share of its region's width (a city's members alone are not a street map). */
const MIN_SPAN = 0.24;
/** Share of the square left around the pins. */
const MARGIN = 0.3;
/** Two pins closer than this ellipse (percent of the square: a photo with its name under it) are pushed apart. */
const PIN_X = 19;
const PIN_Y = 17;

export interface MapPin {
  profile: LanderProfile;
  /** Where the pin stands, in percent of the square. */
  x: number;
  y: number;
  /** Its city's point, in percent of the square (the pin may stand aside from it when others share the city). */
  cityX: number;
  cityY: number;
}

export interface MapLayout {
  region: MapRegionName;
  /** The region's map in percent of the square: its width and its top-left corner. */
  map: { width: number; left: number; top: number };
  pins: MapPin[];
}

function project(region: MapRegion, lat: number, lon: number): [number, number] {
  const lambda = (lon * Math.PI) / 180;
  const phi = (lat * Math.PI) / 180;
  return [region.tx + region.scale * lambda, region.ty - region.scale * Math.log(Math.tan(Math.PI / 4 + phi / 2))];
}

function isInside(region: MapRegion, { lat, lon }: { lat: number; lon: number }): boolean {
  return lon >= region.west && lon <= region.east && lat >= region.south && lat <= region.north;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Where the map lander puts its pins: the region holding most of the profiles' cities (Europe, North America or
 * Oceania), a square cut of its map around them, and one pin per profile (the first MAX_PINS placed), those of one
 * city in a ring around it, pushed apart until no two overlap. The same profiles give the same layout on the
 * server and in the browser. Null when no profile has a place on any map.
 */
export function layOutMap(profiles: LanderProfile[]): MapLayout | null {
  const placed = profiles.filter((p): p is LanderProfile & { position: { lat: number; lon: number } } => p.position !== null);
  let best: MapRegionName | null = null;
  let bestCount = 0;
  for (const name of Object.keys(MAP_REGIONS) as MapRegionName[]) {
    const count = placed.filter((p) => isInside(MAP_REGIONS[name], p.position)).length;
    if (count > bestCount) {
      best = name;
      bestCount = count;
    }
  }
  if (!best) return null;
  const region = MAP_REGIONS[best];
  const shown = placed.filter((p) => isInside(region, p.position)).slice(0, MAX_PINS);
  const points = shown.map((p) => project(region, p.position.lat, p.position.lon));

  // The square: around the points with a margin, at least MIN_SPAN of the region wide, inside the region.
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const spread = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const size = Math.min(Math.max(spread / (1 - MARGIN), region.width * MIN_SPAN), region.width, region.height);
  const centreX = (Math.max(...xs) + Math.min(...xs)) / 2;
  const centreY = (Math.max(...ys) + Math.min(...ys)) / 2;
  const left = clamp(centreX - size / 2, 0, region.width - size);
  const top = clamp(centreY - size / 2, 0, region.height - size);
  const toSquare = ([x, y]: [number, number]): [number, number] => [((x - left) / size) * 100, ((y - top) / size) * 100];

  // Profiles of one city start in a ring around it.
  const cities = new Map<string, number[]>();
  shown.forEach((p, i) => {
    const key = `${p.position.lat.toFixed(2)},${p.position.lon.toFixed(2)}`;
    cities.set(key, [...(cities.get(key) ?? []), i]);
  });
  const cityPoints = points.map(toSquare);
  const spots = cityPoints.map(([x, y]) => ({ x, y }));
  for (const members of cities.values()) {
    if (members.length < 2) continue;
    const radius = members.length > 5 ? 14 : 10;
    members.forEach((i, k) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * k) / members.length;
      spots[i] = { x: spots[i].x + radius * Math.cos(angle), y: spots[i].y + radius * Math.sin(angle) };
    });
  }
  // Then every pair that still overlaps is pushed apart, a little at a time, inside the square.
  for (let round = 0; round < 60; round += 1) {
    let moved = false;
    for (let i = 0; i < spots.length; i += 1) {
      for (let j = i + 1; j < spots.length; j += 1) {
        let dx = (spots[j].x - spots[i].x) / PIN_X;
        let dy = (spots[j].y - spots[i].y) / PIN_Y;
        let distance = Math.hypot(dx, dy);
        if (distance >= 1) continue;
        if (distance < 1e-6) {
          const angle = (i + j) * 2.39996;
          dx = Math.cos(angle);
          dy = Math.sin(angle);
          distance = 1;
        }
        const push = (1 - distance) / 2 / distance;
        spots[i] = { x: spots[i].x - dx * push * PIN_X, y: spots[i].y - dy * push * PIN_Y };
        spots[j] = { x: spots[j].x + dx * push * PIN_X, y: spots[j].y + dy * push * PIN_Y };
        moved = true;
      }
    }
    for (const spot of spots) {
      spot.x = clamp(spot.x, 9, 91);
      spot.y = clamp(spot.y, 8, 90);
    }
    if (!moved) break;
  }
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    region: best,
    map: { width: round((region.width / size) * 100), left: round((-left / size) * 100), top: round((-top / size) * 100) },
    pins: shown.map((profile, i) => ({
      profile,
      x: round(spots[i].x),
      y: round(spots[i].y),
      cityX: round(cityPoints[i][0]),
      cityY: round(cityPoints[i][1]),
    })),
  };
}
