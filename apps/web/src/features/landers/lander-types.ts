import { LANDER_NAMES, type LanderName } from '@amora/contracts/core';

/** One of the spec's landers: `tinderswipe` and the eight with an optional slug. */
export type { LanderName };

/** A profile a lander shows: one of the site's demo or fictional profiles, with its main photo only. */
export interface LanderProfile {
  id: number;
  name: string;
  age: number;
  city: string | null;
  /** ISO country code of the profile. */
  country: string;
  /** Map position of the profile's city (maplanding); null when the city is unknown. */
  position: { lat: number; lon: number } | null;
  /** The main photo in sizes for `srcset` (modern formats); null when the profile has none. */
  photo: { src: string; srcSet: string; width: number; height: number } | null;
  /** A fictional (entertainment) profile: it must carry the fictional icon wherever it is shown. */
  is_fictional: boolean;
}

/**
 * What every lander design receives. The design owns its layout inside the lander layout (small navbar, footer,
 * entry warning come from the layout) and ends in `onSignup` (the signup modal on desktop, the signup page on a
 * phone). Its copy comes from the `landers` i18n namespace: its own keys under `<name>.*` and the niche's under
 * `niche.<niche>.*`.
 */
export interface LanderProps {
  name: LanderName;
  /** Spec §1 niche 1–7 (1 none, 2 she, 3 bdsm, 4 bbw, 5 gilf, 6 milf, 7 gay): the site's, or the slug's. */
  niche: number;
  profiles: LanderProfile[];
  /** Whether this visitor may sign up (spec §6 `signups`); when false the design shows the login instead. */
  canSignUp: boolean;
  /** Opens signup; with a profile id the signup is about that profile (its landing). */
  onSignup: (profileId?: number) => void;
}

/**
 * The query key of a lander's data (api/get-lander.ts). Here, without the query library, because the landers' own
 * page (app/lander) finds its data by it among the answers the server rendered the page from.
 */
export const landerQueryKey = (name: LanderName, slug: string | undefined, forcedCountry: string | null) =>
  ['lander', name, slug ?? '', forcedCountry ?? ''] as const;

/** The lander of a route's parameters: `/landers/:name/:slug?`, or `/landers/tinderswipe` (no name parameter). */
export function landerNameOf(params: Readonly<Record<string, string | undefined>>): LanderName | null {
  const name = params.name ?? 'tinderswipe';
  return (LANDER_NAMES as readonly string[]).includes(name) ? (name as LanderName) : null;
}
