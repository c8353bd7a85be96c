import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberLandingQueryKey } from './member-landing-types';

/**
 * GET /api/member-landing.php: the profile a member landing shows (one of the site's fictional profiles); any other
 * id is a 404, which the page shows as its not-found page.
 */
export const memberLandingQuery = (profileId: number) =>
  queryOptions({
    queryKey: memberLandingQueryKey(profileId),
    queryFn: async () => (await api('GET /api/member-landing.php', { query: { id: profileId } })).profile,
    retry: false,
    staleTime: 5 * 60_000,
  });
