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
/**
 * Two pins closer than this ellipse (percent of the square: a photo with its name under it) are pushed apart: on a
 * phone's square (about 360 px) and on a wider screen's (about 580 px), where a pin takes a smaller share.
 */
const PIN_NARROW = { x: 23, y: 21 };
const PIN_WIDE = { x: 16, y: 15 };

interface Spot {
  x: number;
  y: number;
}

export interface MapPin {
  profile: LanderProfile;
  /** Where the pin stands, in percent of the square, on a phone (x, y) and on a wider screen (wideX, wideY). */
  x: number;
  y: number;
  wideX: number;
  wideY: number;
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

/**
 * The square cut of the region's map: around all the points with a margin, at least MIN_SPAN of the region wide,
 * inside the region. When the points spread wider than the region's map is high (Perth to Auckland), the square
 * as large as the map allows that holds the most of them, nearest their middle.
 */
function frameOf(region: MapRegion, points: [number, number][]): { left: number; top: number; size: number } {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const size = Math.min(Math.max(extent / (1 - MARGIN), region.width * MIN_SPAN), region.width, region.height);
  const place = (centreX: number, centreY: number) => ({
    left: clamp(centreX - size / 2, 0, region.width - size),
    top: clamp(centreY - size / 2, 0, region.height - size),
    size,
  });
  if (extent <= size * 0.94) return place((Math.max(...xs) + Math.min(...xs)) / 2, (Math.max(...ys) + Math.min(...ys)) / 2);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  const edge = size * 0.06;
  let best = place(meanX, meanY);
  let bestCount = -1;
  let bestDistance = Infinity;
  for (const [x, y] of [[meanX, meanY], ...points]) {
    const frame = place(x, y);
    const count = points.filter(
      ([px, py]) => px >= frame.left + edge && px <= frame.left + size - edge && py >= frame.top + edge && py <= frame.top + size - edge,
    ).length;
    const distance = Math.hypot(x - meanX, y - meanY);
    if (count > bestCount || (count === bestCount && distance < bestDistance)) {
      best = frame;
      bestCount = count;
      bestDistance = distance;
    }
  }
  return best;
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
  const inRegion = placed.filter((p) => isInside(region, p.position)).slice(0, MAX_PINS);
  const projected = inRegion.map((p) => project(region, p.position.lat, p.position.lon));
  const { left, top, size } = frameOf(region, projected);
  // Only the cities inside the square get a pin (the list names everyone).
  const inside = projected.map(([x, y]) => x >= left && x <= left + size && y >= top && y <= top + size);
  const shown = inRegion.filter((_, i) => inside[i]);
  const points = projected.filter((_, i) => inside[i]);
  const toSquare = ([x, y]: [number, number]): [number, number] => [((x - left) / size) * 100, ((y - top) / size) * 100];

  const cityPoints = points.map(toSquare);
  const narrow = spread(shown, cityPoints, PIN_NARROW);
  const wide = spread(shown, cityPoints, PIN_WIDE);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    region: best,
    map: { width: round((region.width / size) * 100), left: round((-left / size) * 100), top: round((-top / size) * 100) },
    pins: shown.map((profile, i) => ({
      profile,
      x: round(narrow[i].x),
      y: round(narrow[i].y),
      wideX: round(wide[i].x),
      wideY: round(wide[i].y),
      cityX: round(cityPoints[i][0]),
      cityY: round(cityPoints[i][1]),
    })),
  };
}

/**
 * Where the pins stand around their cities: those of one city start in a ring around it (wider for more), then
 * every pair that still overlaps (closer than the pin's ellipse) is pushed apart, a little at a time, inside the square.
 */
function spread(
  shown: (LanderProfile & { position: { lat: number; lon: number } })[],
  cityPoints: [number, number][],
  pin: { x: number; y: number },
): Spot[] {
  const cities = new Map<string, number[]>();
  shown.forEach((p, i) => {
    const key = `${p.position.lat.toFixed(2)},${p.position.lon.toFixed(2)}`;
    cities.set(key, [...(cities.get(key) ?? []), i]);
  });
  const spots: Spot[] = cityPoints.map(([x, y]) => ({ x, y }));
  for (const members of cities.values()) {
    if (members.length < 2) continue;
    const radius = (members.length > 5 ? 0.7 : 0.5) * pin.x;
    members.forEach((i, k) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * k) / members.length;
      spots[i] = { x: spots[i].x + radius * Math.cos(angle), y: spots[i].y + radius * Math.sin(angle) };
    });
  }
  for (let round = 0; round < 200; round += 1) {
    let moved = false;
    for (let i = 0; i < spots.length; i += 1) {
      for (let j = i + 1; j < spots.length; j += 1) {
        let dx = (spots[j].x - spots[i].x) / pin.x;
        let dy = (spots[j].y - spots[i].y) / pin.y;
        let distance = Math.hypot(dx, dy);
        if (distance >= 1) continue;
        if (distance < 1e-6) {
          const angle = (i + j) * 2.39996;
          dx = Math.cos(angle);
          dy = Math.sin(angle);
          distance = 1;
        }
        const push = (1 - distance) / 2 / distance;
        spots[i] = { x: spots[i].x - dx * push * pin.x, y: spots[i].y - dy * push * pin.y };
        spots[j] = { x: spots[j].x + dx * push * pin.x, y: spots[j].y + dy * push * pin.y };
        moved = true;
      }
    }
    for (const spot of spots) {
      spot.x = clamp(spot.x, pin.x * 0.45, 100 - pin.x * 0.45);
      spot.y = clamp(spot.y, pin.y * 0.4, 100 - pin.y * 0.5);
    }
    if (!moved) break;
  }
  return spots;
}
