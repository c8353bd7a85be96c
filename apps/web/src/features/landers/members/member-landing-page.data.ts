import type { VisitorRouteData } from '@/shared/site/route-data';
import { memberLandingQuery } from './api';
import { landingProfileIdOf } from './member-landing-types';

/**
 * A member landing's first screen (/members/{id}/landing, landing2, landing3): the profile. The server loads it
 * and renders the landing with it, as it renders the landers.
 */
export const memberLandingPageData: VisitorRouteData = ({ queryClient, params }) => {
  const id = landingProfileIdOf(params.id);
  return id ? queryClient.prefetchQuery(memberLandingQuery(id)) : Promise.resolve();
};
