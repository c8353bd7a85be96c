import { api } from '@/lib/api-client';

/** Turns my read receipts on or off (POST /api/read-receipts.php). */
export const postReadReceipts = (enabled: boolean) => api('POST /api/read-receipts.php', { body: { enabled } });
