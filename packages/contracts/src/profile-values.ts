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
export type ProfileAttribute = keyof typeof PROFILE_ATTRIBUTES;
