import { distance } from 'geokdbush';
import { describe, expect, it } from 'vitest';
import { coarsePosition, displayDistanceKm } from './coarse';

/** A point `km` kilometres due north of (lat, lon). */
function north(lat: number, lon: number, km: number): [number, number] {
  return [lat + km / 111.195, lon];
}

describe('coarsePosition', () => {
  it('rounds to 0.01°', () => {
    expect(coarsePosition(52.37403, 4.88969)).toEqual({ lat: 52.37, lon: 4.89 });
    expect(coarsePosition(-33.86785, 151.20732)).toEqual({ lat: -33.87, lon: 151.21 });
    expect(coarsePosition(48.135, 11.575)).toEqual({ lat: 48.14, lon: 11.58 });
  });

  it('never answers -0', () => {
    const p = coarsePosition(-0.001, -0.004);
    expect(Object.is(p.lat, 0)).toBe(true);
    expect(Object.is(p.lon, 0)).toBe(true);
  });
});

describe('displayDistanceKm', () => {
  const [lat, lon] = [52.0, 5.0];
  const at = (km: number) => displayDistanceKm(lat, lon, ...north(lat, lon, km));

  it('measures great-circle distance (the helper above is accurate)', () => {
    const [bLat, bLon] = north(lat, lon, 100);
    expect(distance(lon, lat, bLon, bLat)).toBeCloseTo(100, 1);
  });

  it('shows 5 km for anything up to 5 km, the same place included', () => {
    expect(displayDistanceKm(lat, lon, lat, lon)).toBe(5);
    expect(at(0.4)).toBe(5);
    expect(at(4.9)).toBe(5);
  });

  it('rounds up to the next 5 km up to 50', () => {
    expect(at(5.2)).toBe(10);
    expect(at(12)).toBe(15);
    expect(at(14.9)).toBe(15);
    expect(at(49.5)).toBe(50);
  });

  it('rounds up to the next 25 km up to 200', () => {
    expect(at(50.5)).toBe(75);
    expect(at(80)).toBe(100);
    expect(at(199)).toBe(200);
  });

  it('rounds up to the next 100 km beyond', () => {
    expect(at(201)).toBe(300);
    expect(at(640)).toBe(700);
    expect(displayDistanceKm(52.37, 4.89, 40.71, -74.01)).toBe(5900); // Amsterdam – New York, ~5,860 km
  });

  it('is symmetric', () => {
    expect(displayDistanceKm(52.37, 4.89, 48.14, 11.58)).toBe(displayDistanceKm(48.14, 11.58, 52.37, 4.89));
  });

  it('moving within a bucket shows nothing new', () => {
    const seen = new Set<number>();
    for (let km = 20.1; km <= 25; km += 0.1) seen.add(at(km));
    expect([...seen]).toEqual([25]);
  });
});
