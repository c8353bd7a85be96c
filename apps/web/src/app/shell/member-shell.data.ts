import { chatsQuery } from '@/features/chat/api/chats';
import { prefetchDiscounts } from '@/shared/discounts/time-bonus';
import { likesQuery } from '@/shared/session/likes';
import { companyInfoQuery } from '@/shared/site/api/get-company-info';
import type { RouteData } from '@/shared/site/route-data';

/**
 * What a member's page shows around the page itself (member-shell.tsx, the footer): the counts of new likes and
 * unread messages, the discount banners and the company in the footer. Declared on the layouts, so it is loaded
 * with the data of whichever page under them the server renders.
 */
export const memberShellData: RouteData = ({ queryClient, user }) =>
  Promise.all([
    queryClient.prefetchQuery(likesQuery()),
    queryClient.prefetchQuery(chatsQuery()),
    queryClient.prefetchQuery(companyInfoQuery()),
    prefetchDiscounts(queryClient, user),
  ]);
