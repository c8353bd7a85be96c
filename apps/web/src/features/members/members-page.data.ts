import { regionsQuery } from '@/shared/site/api/get-regions';
import type { RouteData } from '@/shared/site/route-data';
import { searchOf, searchQuery } from './api/search';

/** /members: the first page of the address's search, and the regions when its country's region can be picked. */
export const membersPageData: RouteData = ({ queryClient, search, user, settings }) => {
  const asked = searchOf(search, user, settings);
  return Promise.all([
    queryClient.prefetchInfiniteQuery(searchQuery(asked)),
    asked.filters.country && asked.fields.includes('countryregion') ? queryClient.prefetchQuery(regionsQuery()) : null,
  ]);
};
