import type { RouteData } from '@/shared/site/route-data';
import { swipeGameQuery } from './api/get-swipe-game';

/** /swipe-game: the stack of cards and the likes left today. */
export const swipeGamePageData: RouteData = ({ queryClient }) => queryClient.prefetchQuery(swipeGameQuery());
