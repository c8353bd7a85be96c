import type { VisitorRouteData } from '@/shared/site/route-data';
import { landerQuery } from './api/get-lander';
import { landerNameOf } from './lander-types';

/**
 * A lander's first screen: its data (the niche and the profiles). The server loads it and renders the lander
 * with it (entry-server.tsx prerenderLander), for visitors and members alike.
 */
export const landerPageData: VisitorRouteData = ({ queryClient, params, search }) => {
  const name = landerNameOf(params);
  return name ? queryClient.prefetchQuery(landerQuery(name, params.slug, search.get('forced_country'))) : Promise.resolve();
};
