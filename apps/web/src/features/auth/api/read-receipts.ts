import { api } from '@/lib/api-client';

/** Turns my read receipts on or off (POST /api/read-receipts.php). */
export const postReadReceipts = (enabled: boolean) =>
  api<{ ok: true; enabled: boolean }>('/api/read-receipts.php', { method: 'POST', body: { enabled } });
