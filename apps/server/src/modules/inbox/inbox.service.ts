import {
  ageOn,
  type FictionalProfile,
  type FictionalProfileInput,
  type FictionalProfileList,
  type FictionalProfileUpdate,
  INBOX_CLAIM_MS,
  INBOX_ERRORS,
  INBOX_MESSAGES_PAGE,
  INBOX_PAGE_SIZE,
  type InboxClaim,
  type InboxConversation,
  type InboxList,
  type InboxProfile,
} from '@amora/contracts';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { dbOf, withTransaction } from '../../lib/transaction';
import { sendAsFictional } from '../chat/chat.service';
import { addFictionalPhoto, readPhotoForModeration } from '../photos/photos.service';
import { insertFictionalProfile, updateFictionalProfile } from '../profiles/profiles.service';
import { type Actor, audit } from '../staff/staff.service';
import {
  claim as claimRow,
  type FictionalProfileRow,
  findClaimHolder,
  findFictionalProfile,
  findInboxConversation,
  type InboxConversationRow,
  listConversationMessages,
  listFictionalProfiles,
  listInbox,
  listSites,
  lockOwnClaim,
  releaseClaim,
} from './inbox.repository';

const FICTIONAL_PAGE_SIZE = 50;

const notFoundHere = () => notFound('This conversation could not be found');
const photoUrlOf = (conversationId: number, photoId: number | null) =>
  photoId === null ? null : `/api/console/inbox/${conversationId}/photos/${photoId}`;

function claimOf(
  row: { claimStaffId: number | null; claimStaffName: string | null; claimExpiresAt: Date | null },
  staffId: number,
): InboxClaim | null {
  if (row.claimStaffId === null || row.claimExpiresAt === null) return null;
  return {
    staff_id: row.claimStaffId,
    staff_name: row.claimStaffName ?? '',
    mine: row.claimStaffId === staffId,
    expires_at: row.claimExpiresAt.toISOString(),
  };
}

/** The inbox: what waits for an answer, the longest waiting first, with who holds each claim. */
export async function inbox(ctx: AppContext, actor: Actor, filter: { site?: number; page: number }): Promise<InboxList> {
  const now = ctx.now();
  const { rows, total } = await listInbox(dbOf(ctx), {
    siteId: filter.site,
    now,
    limit: INBOX_PAGE_SIZE,
    offset: (filter.page - 1) * INBOX_PAGE_SIZE,
  });
  return {
    sites: await listSites(dbOf(ctx)),
    items: rows.map((row) => ({
      conversation_id: row.conversationId,
      site: { id: row.siteId, name: row.siteName, domain: row.siteDomain },
      member: {
        id: row.memberId,
        name: row.memberName,
        age: ageOn(row.memberBirthDate, now),
        city: row.memberCity,
        country: row.memberCountry,
        photo_url: photoUrlOf(row.conversationId, row.memberPhotoId),
      },
      fictional: { id: row.fictionalId, name: row.fictionalName, photo_url: photoUrlOf(row.conversationId, row.fictionalPhotoId) },
      waiting: row.waiting,
      last_message_at: row.lastAt.toISOString(),
      claim: claimOf(row, actor.staffId ?? 0),
    })),
    page: filter.page,
    pages: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)),
    total,
  };
}

type Unanswerable = InboxConversation['unanswerable'];

/** Why the member cannot be answered now, or null (the chat's send refuses the same: chatBlock). */
function unanswerableOf(row: InboxConversationRow): Unanswerable {
  if (row.blocked) return 'blocked';
  if (row.memberStatus !== 'active' || (row.memberAccountStatus !== null && row.memberAccountStatus !== 'confirmed')) {
    return 'member_unavailable';
  }
  return null;
}

function refusalOf(reason: NonNullable<Unanswerable>): HttpError {
  return reason === 'blocked'
    ? new HttpError(409, 'blocked', 'The member and this profile are blocked from each other; it cannot answer', {
        message_key: INBOX_ERRORS.blocked,
      })
    : new HttpError(409, 'member_unavailable', 'This member can no longer be answered (account deleted, profile disabled or suspended)', {
        message_key: INBOX_ERRORS.memberUnavailable,
      });
}

function presentProfile(conversationId: number, p: InboxConversationRow['member'], now: Date): InboxProfile {
  return {
    id: p.id,
    name: p.name,
    age: ageOn(p.birthDate, now),
    gender: p.gender,
    sexuality: p.sexuality,
    country: p.country,
    region: p.region,
    city: p.city,
    about: p.about,
    interests: p.interests,
    is_fictional: p.isFictional,
    photo_url: photoUrlOf(conversationId, p.mainPhotoId),
  };
}

/** A conversation with a fictional profile, newest page first (older ones with `before`), and both profiles. */
export async function conversation(ctx: AppContext, actor: Actor, conversationId: number, before?: number): Promise<InboxConversation> {
  const now = ctx.now();
  const row = await findInboxConversation(dbOf(ctx), conversationId, now);
  if (!row) throw notFoundHere();
  const site = await ctx.sites.get(row.siteId);
  const page = await listConversationMessages(dbOf(ctx), conversationId, before, INBOX_MESSAGES_PAGE);
  const more = page.length > INBOX_MESSAGES_PAGE;
  return {
    conversation_id: row.conversationId,
    site: { id: row.siteId, name: row.siteName, domain: row.siteDomain },
    member: presentProfile(conversationId, row.member, now),
    fictional: presentProfile(conversationId, row.fictional, now),
    messages: page
      .slice(0, INBOX_MESSAGES_PAGE)
      .reverse()
      .map((m) => ({
        id: m.id,
        seq: m.seq,
        from: m.senderProfileId === row.fictional.id ? ('fictional' as const) : ('member' as const),
        kind: m.kind,
        body: m.status === 'rejected' ? '' : m.body,
        status: m.status,
        created_at: m.createdAt.toISOString(),
      })),
    more,
    unanswered: row.lastSenderId === row.member.id && row.lastStatus === 'sent',
    unanswerable: unanswerableOf(row),
    claim: claimOf(row, actor.staffId ?? 0),
    max_length: site?.messageLength ?? 1000,
  };
}

/** The main photo of one of the conversation's two profiles (a thumbnail). */
export async function conversationPhoto(ctx: AppContext, conversationId: number, photoId: number): Promise<Buffer> {
  const row = await findInboxConversation(dbOf(ctx), conversationId, ctx.now());
  if (!row || (row.member.mainPhotoId !== photoId && row.fictional.mainPhotoId !== photoId))
    throw notFound('This photo could not be found');
  const bytes = await readPhotoForModeration(ctx, photoId, 'thumb');
  if (!bytes) throw notFound('This photo could not be found');
  return bytes;
}

function claimedByOther(holder: { name: string; expiresAt: Date } | undefined): HttpError {
  return new HttpError(409, 'claimed', `${holder?.name ?? 'Another operator'} is answering this conversation`, {
    name: holder?.name ?? '',
    expires_at: holder?.expiresAt.toISOString() ?? null,
    message_key: INBOX_ERRORS.claimedByOther,
  });
}

/**
 * Claims the conversation for the operator (or renews their claim); 409 with the holder's name while another holds
 * it, and 409 for a member who cannot be answered. A claim taken raises `inbox.claim-changed` (the consoles' live
 * channel).
 */
export async function claimConversation(ctx: AppContext, actor: Actor & { staffId: number }, conversationId: number) {
  const now = ctx.now();
  return withTransaction(ctx, async (tx) => {
    const row = await findInboxConversation(tx, conversationId, now);
    if (!row) throw notFoundHere();
    const unanswerable = unanswerableOf(row);
    if (unanswerable) throw refusalOf(unanswerable);
    const got = await claimRow(tx, conversationId, actor.staffId, now, new Date(now.getTime() + INBOX_CLAIM_MS));
    if (!got) throw claimedByOther(await findClaimHolder(tx, conversationId, now));
    const holder = await findClaimHolder(tx, conversationId, now);
    // A claim taken (not one's own renewed): the other consoles show who is answering.
    if (row.claimStaffId !== actor.staffId) {
      ctx.events.publish({ type: 'inbox.claim-changed', siteId: row.siteId, conversationId });
    }
    await audit(ctx, actor, {
      action: 'inbox.claim',
      objectType: 'conversation',
      objectId: conversationId,
      after: { expires_at: got.expiresAt },
    });
    return {
      claim: { staff_id: actor.staffId, staff_name: holder?.name ?? '', mine: true, expires_at: got.expiresAt.toISOString() },
    };
  });
}

/** Releases the operator's own claim (nothing when they hold none); `inbox.claim-changed` when there was one. */
export async function releaseConversation(ctx: AppContext, actor: Actor & { staffId: number }, conversationId: number): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    if (await releaseClaim(tx, conversationId, actor.staffId)) {
      await audit(ctx, actor, { action: 'inbox.release', objectType: 'conversation', objectId: conversationId });
      const row = await findInboxConversation(tx, conversationId, ctx.now());
      if (row) ctx.events.publish({ type: 'inbox.claim-changed', siteId: row.siteId, conversationId });
    }
  });
}

/**
 * The operator's answer as the fictional profile: only to a member who can be answered (409 `member_unavailable`
 * or `blocked`), only with their own live claim (409 otherwise), only while the member's last message waits (409
 * `answered`); sent through the chat's send (free for the member, who pays only
 * for their own messages), the claim released and the answer audited, all in one unit of work. The client id is
 * the member's message it answers, so a repeated answer stores nothing more.
 */
export async function answer(ctx: AppContext, actor: Actor & { staffId: number }, conversationId: number, text: string) {
  const now = ctx.now();
  return withTransaction(ctx, async (tx) => {
    const row = await findInboxConversation(tx, conversationId, now);
    if (!row) throw notFoundHere();
    // A member who left, was suspended or blocked the profile: refused before anything else (the send refuses it too).
    const unanswerable = unanswerableOf(row);
    if (unanswerable) throw refusalOf(unanswerable);
    const held = await lockOwnClaim(tx, conversationId, actor.staffId, now);
    if (!held) {
      const holder = await findClaimHolder(tx, conversationId, now);
      if (holder) throw claimedByOther(holder);
      throw new HttpError(409, 'claim_needed', 'Claim the conversation before answering it', { message_key: INBOX_ERRORS.claimNeeded });
    }
    if (row.lastSenderId !== row.member.id) {
      throw new HttpError(409, 'answered', 'This conversation has been answered', { message_key: INBOX_ERRORS.answered });
    }
    const message = await sendAsFictional(ctx, {
      conversationId,
      fictionalProfileId: row.fictional.id,
      body: text,
      clientId: `inbox:${conversationId}:${row.lastSeq}`,
    });
    if (!message) throw notFoundHere();
    await releaseClaim(tx, conversationId, actor.staffId);
    await audit(ctx, actor, {
      action: 'inbox.answer',
      objectType: 'conversation',
      objectId: conversationId,
      after: { message_id: message.id },
    });
    return { message_id: message.id };
  });
}

function presentFictional(row: FictionalProfileRow, now: Date): FictionalProfile {
  const p = row.profile;
  return {
    id: p.id,
    site: { id: p.siteId, name: row.siteName, domain: row.siteDomain },
    name: p.name,
    birth_date: p.birthDate,
    age: ageOn(p.birthDate, now),
    gender: p.gender,
    sexuality: p.sexuality,
    country: p.country,
    region: p.region,
    city: p.city,
    about: p.about,
    interests: p.interests,
    status: p.status === 'active' ? 'active' : 'retired',
    is_fictional: true,
    photo_url: p.mainPhotoId === null ? null : `/api/console/fictional-profiles/${p.id}/photo?v=${p.mainPhotoId}`,
  };
}

export async function fictionalProfiles(ctx: AppContext, filter: { site?: number; page: number }): Promise<FictionalProfileList> {
  const now = ctx.now();
  const { rows, total } = await listFictionalProfiles(dbOf(ctx), {
    siteId: filter.site,
    limit: FICTIONAL_PAGE_SIZE,
    offset: (filter.page - 1) * FICTIONAL_PAGE_SIZE,
  });
  return {
    profiles: rows.map((row) => presentFictional(row, now)),
    sites: await listSites(dbOf(ctx)),
    page: filter.page,
    pages: Math.max(1, Math.ceil(total / FICTIONAL_PAGE_SIZE)),
    total,
  };
}

/** Creates a fictional profile on a site: no account, always fictional, active at once. Audited. */
export async function createFictionalProfile(ctx: AppContext, actor: Actor, input: FictionalProfileInput) {
  const site = await ctx.sites.get(input.site_id);
  if (!site) throw new HttpError(400, 'validation_failed', 'There is no such site', { field: 'site_id' });
  return withTransaction(ctx, async (tx) => {
    const made = await insertFictionalProfile(ctx, {
      siteId: input.site_id,
      name: input.name,
      birthDate: input.birth_date,
      gender: input.gender,
      sexuality: input.sexuality ?? null,
      country: input.country,
      region: input.region ?? null,
      city: input.city ?? null,
      about: input.about ?? '',
      interests: input.interests ?? [],
      status: 'active',
    });
    const row = await findFictionalProfile(tx, made.id);
    if (!row) throw new Error(`Fictional profile ${made.id} is missing`);
    const profile = presentFictional(row, ctx.now());
    await audit(ctx, actor, { action: 'fictional.create', objectType: 'profile', objectId: made.id, after: profile });
    return { profile };
  });
}

/** Edits a fictional profile or retires it (status); the fictional flag cannot change. Audited with before and after. */
export async function editFictionalProfile(ctx: AppContext, actor: Actor, profileId: number, input: FictionalProfileUpdate) {
  return withTransaction(ctx, async (tx) => {
    const found = await findFictionalProfile(tx, profileId);
    if (!found) throw notFound('This fictional profile could not be found');
    const before = presentFictional(found, ctx.now());
    await updateFictionalProfile(ctx, profileId, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.birth_date === undefined ? {} : { birthDate: input.birth_date }),
      ...(input.gender === undefined ? {} : { gender: input.gender }),
      ...(input.sexuality === undefined ? {} : { sexuality: input.sexuality }),
      ...(input.country === undefined ? {} : { country: input.country }),
      ...(input.region === undefined ? {} : { region: input.region }),
      ...(input.city === undefined ? {} : { city: input.city }),
      ...(input.about === undefined ? {} : { about: input.about }),
      ...(input.interests === undefined ? {} : { interests: input.interests }),
      ...(input.status === undefined ? {} : { status: input.status === 'active' ? 'active' : 'disabled' }),
      updatedAt: ctx.now(),
    });
    const row = await findFictionalProfile(tx, profileId);
    if (!row) throw new Error(`Fictional profile ${profileId} is missing`);
    const profile = presentFictional(row, ctx.now());
    await audit(ctx, actor, {
      action: input.status === 'retired' ? 'fictional.retire' : 'fictional.update',
      objectType: 'profile',
      objectId: profileId,
      before,
      after: profile,
    });
    return { profile };
  });
}

/**
 * Adds a photo to a fictional profile (the photos module's pipeline; active at once, the first the main photo),
 * then its audit row. The photo's own unit of work runs after its files are processed, outside any transaction,
 * so the audit row follows it.
 */
export async function addFictionalProfilePhoto(ctx: AppContext, actor: Actor, profileId: number, buffer: Buffer) {
  const found = await findFictionalProfile(dbOf(ctx), profileId);
  if (!found) throw notFound('This fictional profile could not be found');
  const { photo, isMain } = await addFictionalPhoto(ctx, { profileId, buffer });
  if (isMain) ctx.events.publish({ type: 'profile.changed', siteId: found.profile.siteId, profileId, fields: ['main_photo'] });
  await audit(ctx, actor, { action: 'fictional.photo', objectType: 'profile', objectId: profileId, after: { photo_id: photo.id } });
  const row = await findFictionalProfile(dbOf(ctx), profileId);
  if (!row) throw notFound('This fictional profile could not be found');
  return { profile: presentFictional(row, ctx.now()) };
}

/** A fictional profile's main photo (a thumbnail). */
export async function fictionalProfilePhoto(ctx: AppContext, profileId: number): Promise<Buffer> {
  const row = await findFictionalProfile(dbOf(ctx), profileId);
  const bytes = row?.profile.mainPhotoId ? await readPhotoForModeration(ctx, row.profile.mainPhotoId, 'thumb') : null;
  if (!bytes) throw notFound('This photo could not be found');
  return bytes;
}
