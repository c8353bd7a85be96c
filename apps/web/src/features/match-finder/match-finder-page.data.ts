import type { RouteData } from '@/shared/site/route-data';
import { suggestionQuery } from './api/get-suggestion';

/** /match-finder: the suggestion it shows. */
export const matchFinderPageData: RouteData = ({ queryClient }) => queryClient.prefetchQuery(suggestionQuery());
