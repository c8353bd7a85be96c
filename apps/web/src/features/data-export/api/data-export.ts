import type { EndpointResponse } from '@amora/contracts/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

type DataExportStatus = EndpointResponse<'GET /api/data-export.php'>;

const dataExportQueryKey = ['data-export'] as const;

/** data-export.php: my latest copy of my data (none, being prepared, ready until a date, expired or failed). */
export const dataExportQuery = () => queryOptions({ queryKey: dataExportQueryKey, queryFn: () => api('GET /api/data-export.php') });

/** Ask for a copy of my data (POST data-export.php); the answer is its state, shown at once. */
export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('POST /api/data-export.php'),
    onSuccess: (status: DataExportStatus) => queryClient.setQueryData(dataExportQueryKey, status),
  });
}
