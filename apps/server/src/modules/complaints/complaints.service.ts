import { randomBytes } from 'node:crypto';
import { CHAT_REPORT_CATEGORY, type ComplaintInput } from '@amora/contracts';
import type { AppContext } from '../../context';
import { HttpError, tooManyRequests } from '../../lib/errors';
import { type DbContext, dbOf } from '../../lib/transaction';
import type { Site } from '../sites/sites.service';
import {
  type ComplaintFilter,
  type ComplaintRow,
  countAbout,
  countComplaints,
  findComplaintRow,
  insertComplaint,
  listComplaints,
  listHandledUnseen,
  setHandled,
  setReporterNotified,
} from './complaints.repository';

export type { ComplaintRow };

const PER_ADDRESS_PER_HOUR = 5;

/** A readable reference the member can quote to support, e.g. C-7K2M9Q4D. */
function newReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  return `C-${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

export async function fileComplaint(
  ctx: AppContext,
  input: ComplaintInput & { site: Site; ip: string; language: string; userId: number | null },
): Promise<string> {
  const limit = await ctx.limiter.hit(`complaint:${input.ip}`, 3_600_000, PER_ADDRESS_PER_HOUR);
  if (!limit.allowed) {
    throw tooManyRequests('Too many complaints from this address, please try again later', limit.retryAfterSeconds);
  }
  return insertComplaint(dbOf(ctx), {
    reference: newReference(),
    siteId: input.site.id,
    userId: input.userId,
    name: input.name,
    email: input.email.toLowerCase(),
    category: input.category,
    subject: input.subject,
    message: input.message,
    url: input.url ?? '',
    language: input.language,
  });
}

/** Reports a member files (from a chat or a profile) in an hour; more answer 429. */
const REPORTS_PER_MEMBER_PER_HOUR = 20;
/** A member reports a profile (not a message) once in this period; again within it answers 409. */
const PROFILE_REPORT_PERIOD_MS = 24 * 3_600_000;

export interface MemberReport {
  siteId: number;
  userId: number;
  name: string;
  email: string;
  language: string;
  subject: string;
  message: string;
  url: string;
  /** What is reported, for the moderation queue: the profile, and for a message its conversation and the message. */
  reportedProfileId: number;
  conversationId?: number;
  messageId?: number;
}

/**
 * A member's report (from a chat: a message or the other member; from a profile: the member): a complaint of the
 * category `chat_report` in the same queue, filed under the member's account, with the conversation, message and
 * profile named in it. A report of a profile itself (`profile`, no message) is taken once per reporter and profile
 * in PROFILE_REPORT_PERIOD_MS, through whichever door it comes: the place is taken in one atomic step before the
 * complaint is written (and given back if writing fails), so reports sent at once file one complaint.
 */
export async function fileMemberReport(
  ctx: AppContext,
  report: MemberReport,
  profile?: { reporterProfileId: number; id: number; name: string },
): Promise<string> {
  const limit = await ctx.limiter.hit(`chat-report:${report.userId}`, 3_600_000, REPORTS_PER_MEMBER_PER_HOUR);
  if (!limit.allowed) throw tooManyRequests('Too many reports, please try again later', limit.retryAfterSeconds);
  const once = profile && `profile-report:${profile.reporterProfileId}:${profile.id}`;
  if (profile && once) {
    const place = await ctx.limiter.take(once, PROFILE_REPORT_PERIOD_MS, 1);
    if (!place.allowed) {
      throw new HttpError(409, 'already_reported', `You already reported ${profile.name}`, {
        name: profile.name,
        message_key: 'chatSafety.errors.alreadyReported',
      });
    }
  }
  try {
    return await insertComplaint(dbOf(ctx), {
      reference: newReference(),
      ...report,
      category: CHAT_REPORT_CATEGORY,
      kind: report.messageId === undefined ? 'profile_report' : 'message_report',
    });
  } catch (error) {
    if (once) await ctx.limiter.release(once);
    throw error;
  }
}

/** The moderation queue's complaints and reports (oldest open first, or newest handled first) and how many match. */
export async function listForModeration(ctx: DbContext, filter: ComplaintFilter, limit: number) {
  const [rows, total] = await Promise.all([listComplaints(dbOf(ctx), filter, limit), countComplaints(dbOf(ctx), filter)]);
  return { rows, total };
}

export function findComplaint(ctx: DbContext, id: number): Promise<ComplaintRow | undefined> {
  return findComplaintRow(dbOf(ctx), id);
}

/** Moderation handled it: how (dismissed, message_removed, warned, …), by which staff member, when. */
export function markHandled(
  ctx: DbContext,
  id: number,
  handled: { resolution: string; staffId: number; at: Date },
): Promise<ComplaintRow | undefined> {
  return setHandled(dbOf(ctx), id, { resolution: handled.resolution, handledBy: handled.staffId, handledAt: handled.at });
}

/** How many complaints and reports name this profile. */
export function countReportsAbout(ctx: DbContext, profileId: number): Promise<number> {
  return countAbout(dbOf(ctx), profileId);
}

/** The member's own complaints and reports handled since they last looked (a notice in the app). */
export async function handledReportsOf(ctx: DbContext, userId: number): Promise<{ reference: string; handledAt: Date }[]> {
  const rows = await listHandledUnseen(dbOf(ctx), userId);
  return rows.flatMap((row) => (row.handledAt ? [{ reference: row.reference, handledAt: row.handledAt }] : []));
}

/** The member has seen that their reports were handled. */
export function markReportsSeen(ctx: DbContext, userId: number, at: Date): Promise<void> {
  return setReporterNotified(dbOf(ctx), userId, at);
}
