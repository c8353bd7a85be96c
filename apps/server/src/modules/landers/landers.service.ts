import { ageOn, type Country, LANDER_PHOTO_WIDTHS, type LanderData, landerPhotoUrl, preferredGenders } from '@amora/contracts';
import type { AppContext } from '../../context';
import { dbOf } from '../../lib/transaction';
import type { Site } from '../sites/sites.service';
import { findLanderCandidates, type LanderCandidate } from './landers.repository';

/**
 * What a lander shows (docs/decisions.md, "Landers"): the site's own fictional profiles only, each labelled
 * fictional on the page. A lander is advertising; a real member's face is not put into it.
 */

/** A lander shows at most this many profiles. */
const MAX_PROFILES = 24;
/** A niche's own profiles are shown when at least this many fit; else the next wider circle of the niche. */
const ENOUGH = 12;

type Fits = (profile: LanderCandidate, age: number) => boolean;
const isWoman: Fits = (p) => p.gender === 'woman';
const isMan: Fits = (p) => p.gender === 'man';
const seeks = (gender: 'woman' | 'man', sexualities: readonly string[]) => (p: LanderCandidate) =>
  preferredGenders(p.gender, p.sexuality, p.lookingFor).includes(gender) || (p.sexuality !== null && sexualities.includes(p.sexuality));

/**
 * Each niche's circles of profiles (spec §1), the narrowest first. A niche shows its narrowest circle that has
 * ENOUGH profiles, so a lander never shows a few faces where a wider choice fits too. The widest circle of a
 * niche with a gender (she, bbw, gilf, milf: women; gay: men) is that gender: it is shown however few it holds,
 * none included (the design's page without faces), since a man on a MILF lander is not what its visitor came
 * for. General (1) and BDSM (3, no profile field tells it: no kink interest is recorded) show everyone.
 */
const NICHE_CIRCLES: Record<number, Fits[]> = {
  1: [],
  2: [(p) => isWoman(p, 0) && seeks('woman', ['lesbian', 'gay', 'bisexual', 'pansexual'])(p), isWoman],
  3: [],
  4: [(p) => isWoman(p, 0) && (p.bodyType === 'curvy' || p.bodyType === 'plus'), isWoman],
  5: [(p, age) => isWoman(p, age) && age >= 60, (p, age) => isWoman(p, age) && age >= 50, isWoman],
  6: [(p, age) => isWoman(p, age) && age >= 35 && age <= 55, (p, age) => isWoman(p, age) && age >= 30, isWoman],
  7: [(p) => isMan(p, 0) && seeks('man', ['gay', 'bisexual', 'pansexual'])(p), isMan],
};

/** The profiles of a niche: its narrowest circle with ENOUGH of them, else its widest (its gender), else everyone. */
function profilesOfNiche<T extends { profile: LanderCandidate; age: number }>(niche: number, all: T[]): T[] {
  const circles = NICHE_CIRCLES[niche] ?? [];
  let chosen = all;
  for (const fits of circles) {
    chosen = all.filter(({ profile, age }) => fits(profile, age));
    if (chosen.length >= ENOUGH) return chosen;
  }
  return chosen;
}

const rad = (deg: number) => (deg * Math.PI) / 180;
/** Distance in km on the sphere (the order only needs it roughly). */
function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lon - a.lon) / 2) ** 2;
  return 12_742 * Math.asin(Math.sqrt(h));
}

/**
 * Where each country's people mostly live (roughly its population's centre), to order a lander's profiles by
 * distance from the visitor's country: the target countries of spec §1.
 */
const COUNTRY_CENTRES: Record<Country, { lat: number; lon: number }> = {
  AT: { lat: 47.9, lon: 15.2 },
  AU: { lat: -33.5, lon: 148.5 },
  BE: { lat: 50.8, lon: 4.4 },
  CA: { lat: 45.5, lon: -77.5 },
  CH: { lat: 47.1, lon: 8.1 },
  DE: { lat: 50.9, lon: 9.6 },
  ES: { lat: 40.0, lon: -3.0 },
  FR: { lat: 47.0, lon: 2.5 },
  GB: { lat: 52.5, lon: -1.5 },
  IE: { lat: 53.2, lon: -7.5 },
  IT: { lat: 42.6, lon: 12.3 },
  NL: { lat: 52.1, lon: 5.3 },
  NZ: { lat: -39.5, lon: 175.0 },
  PL: { lat: 51.9, lon: 19.4 },
  US: { lat: 37.5, lon: -91.5 },
};

/**
 * Nearest the visitor's country first: the profiles of that country, then the others by their distance from
 * where that country's people live; without a position, after those with one. Ties keep the newest first.
 */
function byNearness<T extends { profile: LanderCandidate }>(country: string, chosen: T[]): T[] {
  const centre = COUNTRY_CENTRES[country as Country] ?? null;
  const key = ({ profile }: T) => {
    const own = profile.country === country ? 0 : 1;
    const far =
      centre && profile.lat !== null && profile.lon !== null ? distanceKm(centre, { lat: profile.lat, lon: profile.lon }) : Infinity;
    return [own, far] as const;
  };
  return chosen
    .map((item, index) => ({ item, index, key: key(item) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.index - b.index)
    .map(({ item }) => item);
}

/** The photo of a lander's card: the 4:5 crop at the lander widths (public, cacheable; photos.service readLanderPhoto). */
function landerPhoto(photoId: number): NonNullable<LanderData['profiles'][number]['photo']> {
  const width = LANDER_PHOTO_WIDTHS[1];
  return {
    src: landerPhotoUrl(photoId, width),
    srcSet: LANDER_PHOTO_WIDTHS.map((w) => `${landerPhotoUrl(photoId, w)} ${w}w`).join(', '),
    width,
    height: Math.round((width * 5) / 4),
  };
}

/** A lander's data for a visitor of `site` in `country` (the visitor's, as the settings pick it). */
export async function landerData(ctx: AppContext, site: Site, country: string): Promise<LanderData> {
  const now = ctx.now();
  const all = (await findLanderCandidates(dbOf(ctx), site.id)).map((profile) => ({ profile, age: ageOn(profile.birthDate, now) }));
  const shown = byNearness(country, profilesOfNiche(site.niche, all)).slice(0, MAX_PROFILES);
  return {
    niche: site.niche,
    profiles: shown.map(({ profile, age }) => ({
      id: profile.id,
      name: profile.name,
      age,
      city: profile.city,
      country: profile.country,
      position: profile.lat !== null && profile.lon !== null ? { lat: profile.lat, lon: profile.lon } : null,
      photo: landerPhoto(profile.photoId),
      is_fictional: true,
    })),
  };
}
