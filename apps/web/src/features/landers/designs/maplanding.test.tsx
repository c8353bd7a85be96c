import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LanderProfile } from '@/features/landers/lander-types';
import { landerProfiles, renderLander } from '@/testing/landers';
import { text } from '@/testing/text';
import { MaplandingLander } from './maplanding';
import { layOutMap } from './maplanding-layout';

const profiles = landerProfiles(8);

/** A name as a pattern where the test's DOM may space inline elements apart (" ," for ","), as a browser does not. */
const named = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(',', '\\s?,')}$`);

/** Profiles in these cities (lat, lon), one each. */
function inCities(cities: [number, number][]): LanderProfile[] {
  return landerProfiles(cities.length).map((profile, i) => ({ ...profile, position: { lat: cities[i][0], lon: cities[i][1] } }));
}

describe('maplanding lander', () => {
  it('puts a pin per member on the map of their region, with name and the fictional icon, and lists them all, with no raw key', async () => {
    const { container } = await renderLander(
      <MaplandingLander name="maplanding" niche={3} profiles={profiles} canSignUp onSignup={vi.fn()} />,
    );
    expect(await screen.findByRole('heading', { level: 1, name: text('landers:maplanding.title.3') })).toBeVisible();
    expect(screen.getByText(text('landers:niche.3.label'))).toBeVisible();
    expect(screen.getByText(text('landers:maplanding.caption'))).toBeVisible();
    const map = container.querySelector('img.l-maplanding-land');
    // The region's map is a file of the site's own build, sized and fetched first.
    expect(map?.getAttribute('src')).toMatch(/europe[^/]*\.svg/);
    expect(map?.getAttribute('src')).not.toMatch(/^(https?:)?\/\//);
    expect(map).toHaveAttribute('width', '1000');
    expect(map).toHaveAttribute('fetchpriority', 'high');
    const pins = screen.getAllByTestId('map-pin');
    expect(pins).toHaveLength(profiles.length);
    for (const [index, profile] of profiles.entries()) {
      expect(pins[index]).toHaveAccessibleName(
        named(
          `${profile.name}, ${profile.age}${profile.city ? `, ${profile.city}` : ''}${profile.is_fictional ? ' fictional profile' : ''}`,
        ),
      );
      expect(within(pins[index]).queryByRole('img', { name: 'fictional profile' }) !== null).toBe(profile.is_fictional);
    }
    const rows = screen.getAllByTestId('map-row');
    expect(rows).toHaveLength(profiles.length);
    expect(within(rows[2]).getByRole('img', { name: 'fictional profile' })).toBeVisible();
    expect(container.textContent).not.toMatch(/\b(maplanding|niche|home|signup|common)[.:][a-z]/);
  });

  it('opens signup about the member of a pin or a row, and plainly from the call to action', async () => {
    const onSignup = vi.fn();
    const { user } = await renderLander(<MaplandingLander name="maplanding" niche={1} profiles={profiles} canSignUp onSignup={onSignup} />);
    await user.click((await screen.findAllByTestId('map-pin'))[4]);
    expect(onSignup).toHaveBeenLastCalledWith(profiles[4].id);
    await user.click(screen.getAllByTestId('map-row')[6]);
    expect(onSignup).toHaveBeenLastCalledWith(profiles[6].id);
    await user.click(screen.getByTestId('lander-cta'));
    expect(onSignup).toHaveBeenLastCalledWith(undefined);
  });

  it('offers the login instead when this visitor may not sign up', async () => {
    await renderLander(<MaplandingLander name="maplanding" niche={1} profiles={profiles} canSignUp={false} onSignup={vi.fn()} />);
    expect(await screen.findByTestId('lander-cta')).toHaveAttribute('href', '/login');
    expect(screen.getAllByTestId('map-pin')[0]).toHaveAttribute('href', '/login');
  });

  it('without any member on a map shows the list alone', async () => {
    const unplaced = profiles.map((profile) => ({ ...profile, position: null }));
    const { container } = await renderLander(
      <MaplandingLander name="maplanding" niche={1} profiles={unplaced} canSignUp onSignup={vi.fn()} />,
    );
    expect(await screen.findAllByTestId('map-row')).toHaveLength(profiles.length);
    expect(container.querySelector('.l-maplanding-map')).toBeNull();
  });
});

describe('the map layout', () => {
  it('takes the region holding most members, and cuts a square of it around them', () => {
    const europe = layOutMap(
      inCities([
        [52.37, 4.89],
        [48.86, 2.35],
        [40.42, -3.7],
        [-33.87, 151.21],
      ]),
    );
    expect(europe?.region).toBe('europe');
    expect(europe?.pins).toHaveLength(3);
    const coastToCoast = layOutMap(
      inCities([
        [40.71, -74.01],
        [43.65, -79.38],
        [34.05, -118.24],
        [47.61, -122.33],
        [25.76, -80.19],
        [45.5, -73.57],
      ]),
    );
    expect(coastToCoast?.region).toBe('north-america');
    // Seattle to Montréal and Miami fit in one square of the map.
    expect(coastToCoast?.pins).toHaveLength(6);
    expect(
      layOutMap(
        inCities([
          [-33.87, 151.21],
          [-36.85, 174.76],
        ]),
      )?.region,
    ).toBe('oceania');
    // The square stays inside the region's map: the map covers it whole.
    for (const layout of [europe, layOutMap(inCities([[-36.85, 174.76]]))]) {
      if (!layout) throw new Error('no layout');
      expect(layout.map.left).toBeLessThanOrEqual(0);
      expect(layout.map.top).toBeLessThanOrEqual(0);
      expect(layout.map.width).toBeGreaterThanOrEqual(100);
    }
  });

  it('when the cities spread wider than the map allows, cuts the square holding most of them and pins only those', () => {
    const layout = layOutMap(
      inCities([
        [-36.85, 174.76],
        [-41.29, 174.78],
        [-43.53, 172.64],
        [-33.87, 151.21],
        [-37.81, 144.96],
        [-31.95, 115.86],
      ]),
    );
    if (!layout) throw new Error('no layout');
    expect(layout.region).toBe('oceania');
    // Perth, on the other side of Australia, is left to the list.
    expect(layout.pins.map((pin) => pin.profile.position?.lon)).not.toContain(115.86);
    expect(layout.pins.length).toBeGreaterThanOrEqual(4);
    for (const pin of layout.pins) {
      for (const value of [pin.cityX, pin.cityY]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(100);
      }
    }
  });

  it('places members of one city around it with no two pins on top of each other, the same every time', () => {
    const layout = layOutMap(profiles);
    if (!layout) throw new Error('no layout');
    expect(layOutMap(profiles)).toEqual(layout);
    for (const pin of layout.pins) {
      expect(pin.x).toBeGreaterThanOrEqual(0);
      expect(pin.x).toBeLessThanOrEqual(100);
      expect(pin.y).toBeGreaterThanOrEqual(0);
      expect(pin.y).toBeLessThanOrEqual(100);
      expect([pin.cityX, pin.cityY]).toEqual([layout.pins[0].cityX, layout.pins[0].cityY]);
    }
    for (const [i, a] of layout.pins.entries()) {
      for (const b of layout.pins.slice(i + 1)) {
        expect(Math.hypot((a.x - b.x) / 23, (a.y - b.y) / 21)).toBeGreaterThan(0.9);
        expect(Math.hypot((a.wideX - b.wideX) / 16, (a.wideY - b.wideY) / 15)).toBeGreaterThan(0.9);
      }
    }
  });
});
