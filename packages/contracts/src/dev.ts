import { z } from 'zod';
import { textSchema } from './fields';

/**
 * The development-only calls (never registered in production): the dev mailbox and SMS outbox read by developers
 * and the end-to-end tests, and premium switched on for the logged-in member.
 */

/** GET /api/dev/mailbox.php?to=: the latest outbox emails, to one address or to all. */
export const devMailboxQuerySchema = z.object({ to: textSchema().trim().max(320).optional() });
export const devMailboxResponseSchema = z.object({
  emails: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      html: z.string(),
      created_at: z.string(),
      status: z.string(),
    }),
  ),
});

/** GET /api/dev/sms.php?to=: the latest outbox SMS, to one number or to all. */
export const devSmsQuerySchema = z.object({ to: textSchema().trim().max(40).optional() });
export const devSmsResponseSchema = z.object({
  messages: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      to: z.string(),
      text: z.string(),
      status: z.string(),
      created_at: z.string(),
    }),
  ),
});

/** POST /api/dev/premium.php: premium (paid_user) on or off for the logged-in member. */
export const devPremiumSchema = z.object({ paid: z.boolean() }).strict();
