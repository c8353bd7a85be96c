import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Up to six suggestions for a member who just signed up. */
export function useSignupMatches(isEnabled: boolean) {
  return useQuery({
    queryKey: ['signup-matches'],
    queryFn: async () => (await api('GET /api/signup-matches.php')).profiles,
    enabled: isEnabled,
  });
}
