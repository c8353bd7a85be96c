import { likesQuery } from '@/shared/session/likes';
import type { RouteData } from '@/shared/site/route-data';

/** /likes and /likes/{type}: whom I liked and who liked me (the shell asks for the same, for its count). */
export const likesPageData: RouteData = ({ queryClient }) => queryClient.prefetchQuery(likesQuery());
