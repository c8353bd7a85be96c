import {
  ageOn,
  MODERATION_PAGE_SIZE,
  type ModerationAction,
  type ModerationItem,
  type ModerationKind,
  type ModerationNotices,
  type ModerationQueue,
  type ModerationQueueItem,
  type ModerationQueueQuery,
  type Sanction,
} from '@amora/contracts';
import type { AppContext } from '../../context';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import { dbOf, withTransaction } from '../../lib/transaction';
import { conversationAround, rejectMessage } from '../chat/chat.service';
import {
  type ComplaintRow,
  countReportsAbout,
  findComplaint,
  handledReportsOf,
  listForModeration,
  markHandled,
  markReportsSeen,
} from '../complaints/complaints.service';
import { decidePhoto, listOwnPhotos, pendingPhotos, photoForModeration } from '../photos/photos.service';
import { profileForModeration, setSanctionHidden } from '../profiles/profiles.service';
import { endAllSessions, sanctionRefusal } from '../sessions/sessions.service';
import { type Actor, audit } from '../staff/staff.service';
import {
  findBlockingSanction,
  findRunOutSuspensions,
  findSanction,
  findUnseenWarning,
  insertSanction,
  liftSanction,
  listSanctionsOf,
  type SanctionRow,
  setWarningSeen,
} from './moderation.repository';

/**
 * Moderation (docs/decisions.md, "Moderation: the queue, sanctions and what the reporter hears"): one queue of
 * the complaints and members' reports (the complaints module's rows) and, on sites that moderate photos, the
 * photos waiting; a moderator's action on an item, written with its audit row and the complaint marked handled
 * in one unit of work; sanctions (warning, suspension, ban) that end the member's sessions on every process at
 * once and hide their profile while in force; and what members hear of it.
 */

const HOUR_MS = 3_600_000;

const photoUrl = (id: number) => `/api/console/moderation/photos/${id}`;

function isInForce(row: SanctionRow, now: Date): boolean {
  if (row.liftedAt) return false;
  return row.kind !== 'suspension' || (row.until !== null && row.until > now);
}

function presentSanction(row: SanctionRow, staffName: string | null, now: Date): Sanction {
  return {
    id: row.id,
    kind: row.kind,
    reason: row.reason,
    until: row.until?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    staff_name: staffName,
    lifted_at: row.liftedAt?.toISOString() ?? null,
    active: isInForce(row, now),
    complaint_id: row.complaintId,
  };
}

const complaintKinds = new Set<ModerationKind>(['complaint', 'message_report', 'profile_report']);

/** The queue: open (or handled) complaints and reports, and the photos waiting, oldest first, one page. */
export async function moderationQueue(ctx: AppContext, query: ModerationQueueQuery): Promise<ModerationQueue> {
  const need = query.page * MODERATION_PAGE_SIZE;
  const createdBefore = query.older_than_hours ? new Date(ctx.now().getTime() - query.older_than_hours * HOUR_MS) : undefined;
  const handled = query.status === 'handled';
  const items: (ModerationQueueItem & { at: number })[] = [];
  let total = 0;
  if (query.kind === undefined || complaintKinds.has(query.kind)) {
    const kind = query.kind as ComplaintRow['kind'] | undefined;
    const found = await listForModeration(ctx, { siteId: query.site, kind, handled, createdBefore }, need);
    total += found.total;
    for (const { complaint: c, reported } of found.rows) {
      items.push({
        kind: c.kind,
        id: c.id,
        site_id: c.siteId,
        created_at: c.createdAt.toISOString(),
        reference: c.reference,
        summary: c.subject,
        reporter: { name: c.name, email: c.email },
        reported:
          reported && c.reportedProfileId
            ? { profile_id: c.reportedProfileId, user_id: reported.userId, name: reported.name, is_fictional: reported.isFictional }
            : null,
        resolution: c.resolution,
        handled_at: c.handledAt?.toISOString() ?? null,
        at: (handled ? c.handledAt : c.createdAt)?.getTime() ?? 0,
      });
    }
  }
  // A photo's decision is kept on the photo alone: only waiting photos are in the queue.
  if ((query.kind === undefined || query.kind === 'photo') && !handled) {
    const found = await pendingPhotos(ctx, { siteId: query.site, createdBefore }, need);
    total += found.total;
    for (const p of found.rows) {
      items.push({
        kind: 'photo',
        id: p.id,
        site_id: p.siteId,
        created_at: p.createdAt.toISOString(),
        reference: null,
        summary: p.name,
        reporter: null,
        reported: { profile_id: p.profileId, user_id: p.userId, name: p.name, is_fictional: p.isFictional },
        resolution: null,
        handled_at: null,
        at: p.createdAt.getTime(),
      });
    }
  }
  items.sort((a, b) => (handled ? b.at - a.at : a.at - b.at));
  const page = items.slice((query.page - 1) * MODERATION_PAGE_SIZE, need).map(({ at: _, ...item }) => item);
  return { items: page, page: query.page, page_size: MODERATION_PAGE_SIZE, total };
}

/** What an item is about: the complaint (not for a photo), the photo (a photo item), and the profile concerned. */
interface Loaded {
  complaint: ComplaintRow | null;
  photo: Awaited<ReturnType<typeof photoForModeration>> | null;
  profileId: number | null;
  siteId: number;
}

async function loadItem(ctx: AppContext, kind: ModerationKind, id: number): Promise<Loaded> {
  if (kind === 'photo') {
    const photo = await photoForModeration(ctx, id);
    if (!photo) throw notFound('This item could not be found');
    return { complaint: null, photo, profileId: photo.photo.profileId, siteId: photo.siteId };
  }
  const complaint = await findComplaint(ctx, id);
  if (!complaint || complaint.kind !== kind) throw notFound('This item could not be found');
  return { complaint, photo: null, profileId: complaint.reportedProfileId, siteId: complaint.siteId };
}

/** One item in its context, with the sanctions of the member concerned and how many reports name them. */
export async function moderationItem(ctx: AppContext, kind: ModerationKind, id: number): Promise<ModerationItem> {
  const now = ctx.now();
  const { complaint, photo, profileId, siteId } = await loadItem(ctx, kind, id);
  const owner = profileId === null ? undefined : await profileForModeration(ctx, profileId);
  const userId = owner?.profile.userId ?? null;
  const [photos, sanctions, reportsAbout] = await Promise.all([
    owner ? listOwnPhotos(ctx, owner.profile.id) : null,
    userId === null ? [] : listSanctionsOf(dbOf(ctx), userId),
    profileId === null ? 0 : countReportsAbout(ctx, profileId),
  ]);
  let conversation: ModerationItem['conversation'] = null;
  if (complaint?.kind === 'message_report' && complaint.conversationId !== null && complaint.messageId !== null) {
    const rows = await conversationAround(ctx, complaint.conversationId, complaint.messageId);
    conversation = {
      id: complaint.conversationId,
      messages: rows.map(({ message: m, senderName, senderIsFictional }) => ({
        id: m.id,
        seq: m.seq,
        sender_profile_id: m.senderProfileId,
        sender_name: senderName,
        sender_is_fictional: senderIsFictional,
        from_reported: m.senderProfileId === profileId,
        is_reported: m.id === complaint.messageId,
        kind: m.kind,
        // A photo message's picture is not shown here; its kind says what it was.
        body: m.kind === 'photo' ? '' : m.body,
        status: m.status,
        created_at: m.createdAt.toISOString(),
      })),
    };
  }
  const handled = kind === 'photo' ? photo?.photo.status !== 'pending' : complaint?.status === 'handled';
  return {
    kind,
    id,
    site_id: siteId,
    created_at: (complaint?.createdAt ?? photo?.photo.createdAt ?? now).toISOString(),
    status: handled ? 'handled' : 'open',
    resolution:
      complaint?.resolution ?? (kind === 'photo' && photo ? (photo.photo.status === 'pending' ? null : photo.photo.status) : null),
    handled_at: complaint?.handledAt?.toISOString() ?? null,
    complaint: complaint && {
      reference: complaint.reference,
      name: complaint.name,
      email: complaint.email,
      category: complaint.category,
      subject: complaint.subject,
      message: complaint.message,
      url: complaint.url,
    },
    reported: owner
      ? {
          profile_id: owner.profile.id,
          user_id: userId,
          name: owner.profile.name,
          age: ageOn(owner.profile.birthDate, now),
          city: owner.profile.city,
          about: owner.profile.about,
          status: owner.profile.status,
          is_fictional: owner.profile.isFictional,
          photos: (photos?.photos ?? []).map((p) => ({ id: p.id, status: p.status, url: photoUrl(p.id) })),
        }
      : null,
    conversation,
    photo: photo && { id: photo.photo.id, status: photo.photo.status, url: photoUrl(photo.photo.id) },
    sanctions: sanctions.map((s) => presentSanction(s.sanction, s.staffName, now)),
    reports_about: reportsAbout,
  };
}

const RESOLUTIONS: Record<ModerationAction, string> = {
  dismiss: 'dismissed',
  remove_message: 'message_removed',
  remove_photo: 'photo_removed',
  approve_photo: 'photo_approved',
  warn: 'warned',
  suspend: 'suspended',
  ban: 'banned',
};

const SANCTION_OF = { warn: 'warning', suspend: 'suspension', ban: 'ban' } as const;

const notPossible = (message: string) => badRequest('action', message);

export interface ActionInput {
  action: ModerationAction;
  reason: string;
  hours?: number;
  photo_id?: number;
}

/**
 * A moderator's action on an item, in one unit of work with its audit row; a complaint or report is marked
 * handled and its reporter told (a notice in the app, and a mail) that it was looked into, never what was done.
 */
export async function actOnItem(
  ctx: AppContext,
  actor: Actor & { staffId: number },
  kind: ModerationKind,
  id: number,
  input: ActionInput,
): Promise<{ resolution: string; sanction: Sanction | null }> {
  const now = ctx.now();
  const { action } = input;
  const resolution = RESOLUTIONS[action];
  const result = await withTransaction(ctx, async () => {
    const item = await loadItem(ctx, kind, id);
    const { complaint, photo } = item;
    const after: Record<string, unknown> = { action, reason: input.reason };
    let sanction: Sanction | null = null;
    switch (action) {
      case 'dismiss':
        if (!complaint) throw notPossible('A photo is approved or removed, not dismissed');
        break;
      case 'remove_message': {
        if (!complaint?.messageId) throw notPossible('Only a message report names a message');
        after.message_id = complaint.messageId;
        after.refunded = await rejectMessage(ctx, complaint.messageId);
        break;
      }
      case 'remove_photo':
      case 'approve_photo': {
        const photoId = photo
          ? photo.photo.id
          : action === 'remove_photo' && complaint?.kind === 'profile_report'
            ? input.photo_id
            : undefined;
        if (photoId === undefined) throw notPossible('Name the photo (photo_id) of the profile reported');
        if (!photo) {
          const named = await photoForModeration(ctx, photoId);
          if (!named || named.photo.profileId !== item.profileId) throw badRequest('photo_id', 'This photo is not of the profile reported');
        }
        const decided = await decidePhoto(ctx, photoId, action === 'approve_photo' ? 'active' : 'rejected');
        if (!decided) throw notFound('This photo could not be found');
        after.photo_id = photoId;
        after.photo_status_before = decided.before;
        break;
      }
      default: {
        const owner = item.profileId === null ? undefined : await profileForModeration(ctx, item.profileId);
        const userId = owner?.profile.userId ?? null;
        if (!owner || userId === null || owner.user?.status === 'deleted') {
          throw new HttpError(409, 'no_member', 'No member to sanction: nobody is named, the profile is fictional or the account is gone');
        }
        const until = action === 'suspend' ? new Date(now.getTime() + (input.hours ?? 0) * HOUR_MS) : null;
        const row = await insertSanction(dbOf(ctx), {
          userId,
          kind: SANCTION_OF[action],
          reason: input.reason,
          until,
          complaintId: complaint?.id ?? null,
          staffId: actor.staffId,
          createdAt: now,
        });
        if (action !== 'warn') {
          await setSanctionHidden(ctx, userId, true);
          await endAllSessions(ctx, { siteId: owner.profile.siteId, userId });
        }
        sanction = presentSanction(row, null, now);
        after.sanction_id = row.id;
        after.user_id = userId;
        after.until = until?.toISOString() ?? null;
      }
    }
    let notify: ComplaintRow | null = null;
    if (complaint) {
      const marked = await markHandled(ctx, complaint.id, { resolution, staffId: actor.staffId, at: now });
      if (complaint.status !== 'handled' && marked) notify = marked;
    }
    await audit(ctx, actor, {
      action: `moderation.${action}`,
      objectType: kind === 'photo' ? 'photo' : 'complaint',
      objectId: id,
      before: complaint ? { status: complaint.status, resolution: complaint.resolution } : { status: photo?.photo.status },
      after,
    });
    if (notify) await tellReporter(ctx, notify);
    return { resolution, sanction };
  });
  return result;
}

/**
 * The reporter hears that their report was handled, never what happened: the mail (in the unit of work: it is
 * stored with it, and sent once committed) to the address of the complaint. Not an essential mail: a member whose
 * mail is stopped sees it only in the app (docs/decisions.md).
 */
async function tellReporter(ctx: AppContext, complaint: ComplaintRow): Promise<void> {
  const site = await ctx.sites.get(complaint.siteId);
  if (!site) return;
  await ctx.mailer.queue({
    kind: 'report_handled',
    site,
    locale: complaint.language,
    to: complaint.email,
    userId: complaint.userId,
    vars: { name: complaint.name, reference: complaint.reference },
  });
}

/**
 * Lifts a sanction: a suspended or banned member may log in again and their profile shows again (unless another
 * sanction still holds). What an action removed with it is not given back here: a photo is approved again on its
 * item; a removed message cannot come back (its price went back to the sender), which the answer says.
 */
export async function undoSanction(
  ctx: AppContext,
  actor: Actor & { staffId: number },
  sanctionId: number,
): Promise<{ sanction: Sanction; not_restored: string[] }> {
  const now = ctx.now();
  return withTransaction(ctx, async () => {
    const found = await findSanction(dbOf(ctx), sanctionId);
    if (!found) throw notFound('This sanction could not be found');
    const lifted = await liftSanction(dbOf(ctx), sanctionId, actor.staffId, now);
    if (!lifted) throw new HttpError(409, 'already_lifted', 'This sanction was lifted before');
    if (lifted.kind !== 'warning' && !(await findBlockingSanction(dbOf(ctx), lifted.userId, now))) {
      await setSanctionHidden(ctx, lifted.userId, false);
    }
    const notRestored: string[] = [];
    const complaint = lifted.complaintId === null ? undefined : await findComplaint(ctx, lifted.complaintId);
    if (complaint?.kind === 'message_report' && complaint.conversationId !== null && complaint.messageId !== null) {
      const around = await conversationAround(ctx, complaint.conversationId, complaint.messageId);
      if (around.some((m) => m.message.id === complaint.messageId && m.message.status === 'rejected')) notRestored.push('message');
    }
    await audit(ctx, actor, {
      action: 'moderation.undo',
      objectType: 'sanction',
      objectId: sanctionId,
      before: { lifted_at: null },
      after: { lifted_at: now.toISOString(), user_id: lifted.userId, kind: lifted.kind, not_restored: notRestored },
    });
    return { sanction: presentSanction(lifted, found.staffName, now), not_restored: notRestored };
  });
}

/**
 * The ban or suspension that refuses the member's login (403 `banned`, or `suspended` with its end; sessions'
 * startSession refuses every other way in alike), or nothing; a suspension that ran out shows the member's
 * profile again.
 */
export async function checkLoginAllowed(ctx: AppContext, userId: number): Promise<void> {
  const blocking = await findBlockingSanction(dbOf(ctx), userId, ctx.now());
  if (blocking) throw sanctionRefusal(blocking);
  await setSanctionHidden(ctx, userId, false);
}

/** What the member is told: a warning not yet acknowledged, and their reports handled since they last looked. */
export async function moderationNotices(ctx: AppContext, userId: number): Promise<ModerationNotices> {
  const [warning, handled] = await Promise.all([findUnseenWarning(dbOf(ctx), userId), handledReportsOf(ctx, userId)]);
  return {
    warning: warning ? { id: warning.id, reason: warning.reason, created_at: warning.createdAt.toISOString() } : null,
    handled_reports: handled.map((r) => ({ reference: r.reference, handled_at: r.handledAt.toISOString() })),
  };
}

export async function acknowledgeNotices(ctx: AppContext, userId: number, input: { warning_id?: number; reports?: true }): Promise<void> {
  const now = ctx.now();
  if (input.warning_id !== undefined) await setWarningSeen(dbOf(ctx), userId, input.warning_id, now);
  if (input.reports) await markReportsSeen(ctx, userId, now);
}

/** Members whose profile shows again per run of the hourly job (the next run takes the rest). */
const RUN_OUT_PER_RUN = 500;

/**
 * The hourly `moderation.end-suspensions` job: a member whose suspension ran out shows again to others without
 * waiting for their next login (which would show it too). Answers how many.
 */
export async function endRunOutSuspensions(ctx: AppContext): Promise<number> {
  const userIds = await findRunOutSuspensions(dbOf(ctx), ctx.now(), RUN_OUT_PER_RUN);
  for (const userId of userIds) await setSanctionHidden(ctx, userId, false);
  return userIds.length;
}
