import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * The profile a signup's first message goes to (/members/{id}/signup), as its member landing shows it to a
 * visitor (member-landing.php): its name, photo and fictional flag for the form. A profile no landing may show
 * is no answer (404), and the form asks for the message without naming anyone.
 */
export function useSignupRecipient(profileId: number | undefined) {
  return useQuery({
    queryKey: ['member-landing', profileId],
    queryFn: async () => (await api('GET /api/member-landing.php', { query: { id: profileId as number } })).profile,
    enabled: profileId !== undefined,
    retry: false,
    staleTime: 5 * 60_000,
  });
}
