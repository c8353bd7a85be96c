import type { RouteData } from '@/shared/site/route-data';
import { packagesQuery } from '../api/payments';

/** /credits: the packages of the member's payment country, with the active discount applied. */
export const creditsPageData: RouteData = ({ queryClient }) => queryClient.prefetchQuery(packagesQuery());
