import { interestsQuery } from '@/shared/site/api/get-interests';
import type { RouteData } from '@/shared/site/route-data';
import { memberQuery } from '../api/profile';

/** The profile id of a member page's path (`/members/:id`), 0 when it is not a number. */
export const profileIdOf = (id: string | undefined): number => (id && /^\d+$/.test(id) ? Number(id) : 0);

/** /members/{id} and /likes/m/{id}: the profile, and the site's interests in their order. */
export const memberPageData: RouteData = ({ queryClient, params }) => {
  const id = profileIdOf(params.id);
  return Promise.all([id ? queryClient.prefetchQuery(memberQuery(id)) : null, queryClient.prefetchQuery(interestsQuery())]);
};
