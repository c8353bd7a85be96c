import type { ComplaintInput } from '@amora/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

function createComplaint(input: ComplaintInput): Promise<{ ok: true; reference: string }> {
  return api('POST /api/complaints.php', { body: input });
}

export function useCreateComplaint() {
  return useMutation({ mutationFn: createComplaint });
}
