import type { MemberResponse, ProfileCard } from '@amora/contracts';
import type { QueryClient } from '@tanstack/react-query';

/**
 * The cards a list has shown (search results, similar and related profiles), by profile id: the search state's
 * `otherCachedProfiles` of spec §3. The profile page opened from a card paints them at once (photo, name, age)
 * while the full profile loads. They live in the query cache, so they go when it collects unused data.
 */
export const profileCardKey = (id: number) => ['profile-card', id] as const;

export function rememberProfileCards(queryClient: QueryClient, cards: readonly ProfileCard[]): void {
  for (const card of cards) queryClient.setQueryData(profileCardKey(card.id), card);
}

export function cachedProfileCard(queryClient: QueryClient, id: number): ProfileCard | undefined {
  return queryClient.getQueryData<ProfileCard>(profileCardKey(id));
}

/** A profile page's answer made of its card: what the page shows until the server's answer arrives. */
export function memberPreview(card: ProfileCard): MemberResponse {
  return {
    profile: {
      id: card.id,
      name: card.name,
      age: card.age,
      country: card.country,
      region: null,
      city: card.city,
      about: '',
      attributes: {},
      interests: [],
      is_premium: card.is_premium,
      is_fictional: card.is_fictional,
      photos: card.thumb_url ? [{ id: 0, is_locked: false, url: card.thumb_url, thumb_url: card.thumb_url }] : [],
      hidden_photo_count: 0,
      is_blocked_by_me: false,
      is_own: false,
    },
    related: [],
  };
}
