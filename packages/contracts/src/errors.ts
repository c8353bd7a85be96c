import { z } from 'zod';

export const errorSchema = z
  .object({
    error: z.string(),
    message: z.string(),
    field: z.string().optional(),
    fields: z.record(z.string(), z.string()).optional(),
    authentication_required: z.boolean().optional(),
    retry_after_seconds: z.number().int().optional(),
  })
  .loose();
export type ApiError = z.infer<typeof errorSchema>;
