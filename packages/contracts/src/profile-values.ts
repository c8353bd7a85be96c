export const GENDERS = ['woman', 'man', 'nonbinary'] as const;
export const SEXUALITIES = ['straight', 'gay', 'lesbian', 'bisexual', 'pansexual', 'asexual', 'other'] as const;
export const HAIR_COLOURS = ['black', 'brown', 'blonde', 'red', 'grey', 'white', 'bald', 'other'] as const;
export const EYE_COLOURS = ['brown', 'blue', 'green', 'grey', 'hazel', 'other'] as const;
export const BODY_TYPES = ['slim', 'athletic', 'average', 'curvy', 'plus', 'muscular'] as const;
export const RELATIONSHIP_STATUSES = ['single', 'divorced', 'widowed', 'separated', 'relationship', 'married'] as const;

/** Profile attributes of spec §3 and their choices; the site's visible_profile_fields picks which are shown. */
export const PROFILE_ATTRIBUTES = {
  gender: GENDERS,
  sexuality: SEXUALITIES,
  hair_colour: HAIR_COLOURS,
  eye_colour: EYE_COLOURS,
  body_type: BODY_TYPES,
  relationship_status: RELATIONSHIP_STATUSES,
} as const;

/**
 * Whom a member is looking for when they did not answer looking_for: these (gender, sexuality) pairs look for
 * one gender; every other pair (and not saying) looks for everyone.
 */
export const IMPLIED_LOOKING_FOR: readonly { gender: string; sexualities: readonly string[]; lookingFor: string }[] = [
  { gender: 'man', sexualities: ['straight'], lookingFor: 'woman' },
  { gender: 'woman', sexualities: ['straight'], lookingFor: 'man' },
  { gender: 'man', sexualities: ['gay'], lookingFor: 'man' },
  { gender: 'woman', sexualities: ['lesbian', 'gay'], lookingFor: 'woman' },
];

/**
 * The genders a member is looking for; empty means everyone (or that we cannot tell). What they answered after
 * signup (looking_for) decides; without it, their own gender and sexuality (IMPLIED_LOOKING_FOR).
 */
export function preferredGenders(gender: string | null, sexuality: string | null, lookingFor: readonly string[] | null = null): string[] {
  if (lookingFor && lookingFor.length > 0) return GENDERS.every((g) => lookingFor.includes(g)) ? [] : [...lookingFor];
  const implied = IMPLIED_LOOKING_FOR.find((rule) => rule.gender === gender && sexuality !== null && rule.sexualities.includes(sexuality));
  return implied ? [implied.lookingFor] : [];
}

/**
 * Mutual interest (search, suggestions, the auto-like): `viewer` is looking for the listed profile's gender and
 * the listed profile is looking for the viewer's (a gender nobody can tell is no obstacle on that side).
 * conditions.ts's mutualInterest says the same in SQL.
 */
export function isMutualMatch(viewer: PreferenceHolder, listed: PreferenceHolder): boolean {
  const seeks = preferredGenders(viewer.gender, viewer.sexuality, viewer.lookingFor);
  const sought = preferredGenders(listed.gender, listed.sexuality, listed.lookingFor);
  return (
    (seeks.length === 0 || (listed.gender !== null && seeks.includes(listed.gender))) &&
    (viewer.gender === null || sought.length === 0 || sought.includes(viewer.gender))
  );
}

/** What a preference is made of: a profile's gender, sexuality and looking_for answer. */
export interface PreferenceHolder {
  gender: string | null;
  sexuality: string | null;
  lookingFor: readonly string[] | null;
}
