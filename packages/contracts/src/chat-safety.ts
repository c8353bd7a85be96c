import { z } from 'zod';
import { idSchema, multilineTextSchema } from './fields';

/**
 * Safety in the chat (issue 16 item 6; read receipts of item 4): reporting a message or a member from a chat, and
 * the member's read-receipts setting.
 */

/** Why a member reports a message or a member from a chat. */
export const CHAT_REPORT_REASONS = ['spam', 'scam', 'harassment', 'explicit', 'fake', 'underage', 'other'] as const;
export type ChatReportReason = (typeof CHAT_REPORT_REASONS)[number];
/** The longest note a report may carry. */
export const CHAT_REPORT_TEXT_MAX = 1_000;
/** The complaints category reports from the chat are filed under (the moderation queue reads it). */
export const CHAT_REPORT_CATEGORY = 'chat_report';

/**
 * POST /api/chat-report.php: a conversation of mine (kept for me even when I removed it, or the other side
 * removed it, unmatched or deleted their account), and optionally one of the other member's messages in it; or,
 * from a profile page, a profile (`profile`, with or without a conversation between us). Exactly one of
 * `conversation` and `profile`; `message` only with a conversation.
 */
export const chatReportSchema = z
  .object({
    conversation: idSchema().optional(),
    profile: idSchema().optional(),
    message: idSchema().optional(),
    reason: z.enum(CHAT_REPORT_REASONS, 'chatSafety.errors.reason'),
    text: multilineTextSchema().max(CHAT_REPORT_TEXT_MAX, 'chatSafety.errors.tooLong').optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.conversation === undefined) === (input.profile === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['conversation'], message: 'chatSafety.errors.target' });
    } else if (input.message !== undefined && input.conversation === undefined) {
      ctx.addIssue({ code: 'custom', path: ['message'], message: 'chatSafety.errors.target' });
    }
  });
export type ChatReportInput = z.input<typeof chatReportSchema>;

export const chatReportResponseSchema = z.object({
  ok: z.literal(true),
  /** The complaint's reference (C-XXXXXXXX), to quote to support. */
  reference: z.string(),
});

/** POST /api/read-receipts.php: turn my read receipts on or off. */
export const readReceiptsSchema = z.object({ enabled: z.boolean() }).strict();
export const readReceiptsResponseSchema = z.object({ ok: z.literal(true), enabled: z.boolean() });
