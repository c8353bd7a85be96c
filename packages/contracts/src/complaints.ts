import { z } from 'zod';
import { multilineTextSchema, textSchema } from './fields';

export const COMPLAINT_CATEGORIES = ['billing', 'profile', 'harassment', 'technical', 'privacy', 'other'] as const;

export const complaintSchema = z.object({
  name: textSchema().trim().min(2, 'complaints.errors.name').max(100, 'complaints.errors.name'),
  email: z.email('complaints.errors.email').max(254, 'complaints.errors.email'),
  category: z.enum(COMPLAINT_CATEGORIES, 'complaints.errors.category'),
  subject: textSchema().trim().min(3, 'complaints.errors.subject').max(150, 'complaints.errors.subject'),
  message: multilineTextSchema().trim().min(20, 'complaints.errors.message').max(5000, 'complaints.errors.message'),
  url: textSchema().trim().max(500, 'complaints.errors.url').optional().or(z.literal('')),
});
export type ComplaintInput = z.infer<typeof complaintSchema>;
export const complaintResponseSchema = z.object({ ok: z.literal(true), reference: z.string() });
