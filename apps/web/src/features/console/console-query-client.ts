import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '@/lib/api-client';
import { meQueryKey } from './api/console';

/**
 * The console's query client: one retry of a failed read, none of a refused one; a session that ended meanwhile
 * (signed out elsewhere, ended from another device, the account made inactive) brings back the sign-in.
 */
export function createConsoleQueryClient(options: { retry?: boolean } = {}): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof ApiRequestError && error.status === 401) client.setQueryData(meQueryKey, null);
      },
    }),
    defaultOptions: {
      queries: {
        retry: options.retry === false ? false : (count, error) => !(error instanceof ApiRequestError && error.status < 500) && count < 1,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
