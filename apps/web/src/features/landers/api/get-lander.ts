import type { LanderName } from '@amora/contracts/core';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { landerQueryKey } from '../lander-types';

/** GET /api/lander.php: the site's niche and the profiles the lander shows (the visitor's country first). */
export const landerQuery = (name: LanderName, slug: string | undefined, forcedCountry: string | null) =>
  queryOptions({
    queryKey: landerQueryKey(name, slug, forcedCountry),
    queryFn: () => api('GET /api/lander.php', { query: { name, slug, forced_country: forcedCountry ?? undefined } }),
    staleTime: 5 * 60_000,
  });
