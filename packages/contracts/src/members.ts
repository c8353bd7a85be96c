import { z } from 'zod';

export const membersQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(500).default(1) });
export const memberCardSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  country: z.string(),
  is_fictional: z.boolean(),
  is_premium: z.boolean(),
  city: z.string().nullable(),
  thumb_url: z.string().nullable(),
});
export type MemberCard = z.infer<typeof memberCardSchema>;
export const membersResponseSchema = z.object({ results: z.array(memberCardSchema), page: z.number().int(), has_more: z.boolean() });
export type MembersResponse = z.infer<typeof membersResponseSchema>;
