import { z } from 'zod';
import { idSchema } from './fields';

/** Cards per swipe-game stack, suggestions on /signup-matches (spec §2 swipe-game, signup-matches). */
export const SWIPE_STACK_SIZE = 10;
export const SIGNUP_MATCHES_COUNT = 6;
/** Longest about text on a card; the profile page has the whole text. */
export const CARD_ABOUT_LENGTH = 200;

const DISCOVERY_ACTIONS = ['like', 'skip'] as const;
export type DiscoveryAction = (typeof DISCOVERY_ACTIONS)[number];

/** A like or a skip in the match-finder or the swipe game. */
export const discoveryActionSchema = z
  .object({
    profile_id: idSchema(),
    action: z.enum(DISCOVERY_ACTIONS),
  })
  .strict();
export type DiscoveryActionInput = z.infer<typeof discoveryActionSchema>;

/** One suggested profile: what a big card shows. The photo is the main photo (square `match` and `large`). */
const discoveryCardSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  photo: z.object({ match: z.string(), large: z.string() }).nullable(),
  is_fictional: z.boolean(),
  is_premium: z.boolean(),
  about: z.string(),
  interests: z.array(z.string()),
});
export type DiscoveryCard = z.infer<typeof discoveryCardSchema>;

export const matchFinderResponseSchema = z.object({ profile: discoveryCardSchema.nullable() });
export type MatchFinderResponse = z.infer<typeof matchFinderResponseSchema>;

export const matchFinderActionResponseSchema = z.object({
  ok: z.literal(true),
  is_match: z.boolean(),
  next: discoveryCardSchema.nullable(),
});
export type MatchFinderActionResponse = z.infer<typeof matchFinderActionResponseSchema>;

/** The swipe game (spec §9: 4 likes per day); `likes_reset_at` is the next midnight UTC. */
export const swipeGameResponseSchema = z.object({
  cards: z.array(discoveryCardSchema),
  likes_left: z.number().int().min(0),
  likes_reset_at: z.string(),
});
export type SwipeGameResponse = z.infer<typeof swipeGameResponseSchema>;

export const swipeActionResponseSchema = z.object({
  ok: z.literal(true),
  is_match: z.boolean(),
  likes_left: z.number().int().min(0),
  likes_reset_at: z.string(),
});
export type SwipeActionResponse = z.infer<typeof swipeActionResponseSchema>;

export const signupMatchesResponseSchema = z.object({ profiles: z.array(discoveryCardSchema) });
