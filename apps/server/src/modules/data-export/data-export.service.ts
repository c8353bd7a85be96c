import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DATA_EXPORT_DAYS, type DataExportStatus, DATA_EXPORT_ERRORS as E } from '@amora/contracts';
import { translate } from '@amora/i18n';
import { ZipFile } from 'yazl';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { mediaStoreOf } from '../../lib/media-storage';
import { hashToken, newToken } from '../../lib/tokens';
import { afterCommit, dbOf, withTransaction } from '../../lib/transaction';
import { listOwnPhotos, readChatPhoto, readOwnPhotoFiles } from '../photos/photos.service';
import { siteUrl } from '../sites/sites.service';
import * as rows from './data-export.repository';

/**
 * A member takes their data with them (GDPR art. 15 and 20; docs/decisions.md, "Members take their data with
 * them"): they ask for it (one at a time, once a day), the `data-export.prepare` job writes a ZIP of JSON files and
 * their photos to the media store (`exports/<fileKey>.zip`: DATA_DIR or the bucket, lib/media-storage.ts), and an essential mail brings a link that works for DATA_EXPORT_DAYS days,
 * for them alone while logged in. The daily `data-export.expire` job removes the files of links that ran out.
 */

const DAY_MS = 86_400_000;
/** One request a day per member (the limiter's key). */
const REQUESTS_PER_DAY = 1;
/** An export still pending after this long was given up by its job: failed, so the member may ask again. */
const PENDING_GIVES_UP_MS = DAY_MS;
const FILE_KEY = /^[0-9a-f]{32}$/;

const exportError = (status: number, code: string, key: string, extra: Record<string, unknown> = {}) =>
  new HttpError(status, code, translate('en', key), { message_key: key, ...extra });

function exportKey(fileKey: string): string {
  // The key is ours, but an object's name is built from it: refuse anything that is not exactly what we generate.
  if (!FILE_KEY.test(fileKey)) throw new Error('invalid export file key');
  return `exports/${fileKey}.zip`;
}

async function removeExportFiles(ctx: Pick<AppContext, 'config'>, fileKeys: string[]): Promise<void> {
  await mediaStoreOf(ctx.config).remove(fileKeys.map(exportKey));
}

function statusOf(ctx: AppContext, row: rows.DataExportRow | undefined): DataExportStatus {
  if (!row) return { status: 'none', requested_at: null, expires_at: null };
  const expired = row.status === 'expired' || (row.status === 'ready' && (row.expiresAt?.getTime() ?? 0) <= ctx.now().getTime());
  return {
    status: expired ? 'expired' : row.status,
    requested_at: row.createdAt.toISOString(),
    expires_at: row.status === 'ready' || expired ? (row.expiresAt?.toISOString() ?? null) : null,
  };
}

/** GET data-export.php: the member's latest export. */
export async function exportStatus(ctx: AppContext, userId: number): Promise<DataExportStatus> {
  return statusOf(ctx, await rows.findLatestExport(dbOf(ctx), userId));
}

/**
 * POST data-export.php: a new export, prepared by a job. Refused while one is pending (409) or ready to download
 * (409), and when the member asked already in the last 24 hours (429).
 */
export async function requestExport(ctx: AppContext, userId: number): Promise<DataExportStatus> {
  const latest = statusOf(ctx, await rows.findLatestExport(dbOf(ctx), userId));
  if (latest.status === 'pending') throw exportError(409, 'export_pending', E.pending);
  if (latest.status === 'ready') throw exportError(409, 'export_ready', E.ready);
  // Taken atomically: of two requests at once exactly one passes.
  const limit = await ctx.limiter.take(`data-export:${userId}`, DAY_MS, REQUESTS_PER_DAY);
  if (!limit.allowed) throw exportError(429, 'rate_limited', E.tooSoon, { retry_after_seconds: limit.retryAfterSeconds });
  const row = await withTransaction(ctx, async (tx) => {
    const created = await rows.insertExport(tx, userId, ctx.now());
    await ctx.jobs.enqueue(tx, 'data-export.prepare', { exportId: created.id });
    return created;
  });
  return statusOf(ctx, row);
}

/** An ISO time, or null. */
const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

interface ZipEntry {
  name: string;
  data: Buffer;
  /** Already compressed (WebP): stored as it is. */
  stored?: boolean;
}

const json = (name: string, value: unknown): ZipEntry => ({ name, data: Buffer.from(`${JSON.stringify(value, null, 2)}\n`) });

/** The member's data as the files of the ZIP: JSON files, their photos and the photos they sent in chats. */
async function collect(
  ctx: AppContext,
  userId: number,
): Promise<{ entries: ZipEntry[]; account: NonNullable<Awaited<ReturnType<typeof rows.accountOf>>>; name: string } | null> {
  const db = dbOf(ctx);
  const account = await rows.accountOf(db, userId);
  const profile = await rows.profileOf(db, userId);
  if (!account || !profile) return null;
  const site = await ctx.sites.get(account.siteId);
  const me = profile.id;
  const owner = { userId, profileId: me };
  const entries: ZipEntry[] = [];

  const preferences = await rows.notificationPreferencesOf(db, userId);
  entries.push(
    json('account.json', {
      email: account.email,
      site: site ? { name: site.name, domain: site.domain } : { id: account.siteId },
      language: account.language,
      status: account.status,
      date_of_birth: account.dateOfBirth,
      signup_date: iso(account.signupDate),
      confirmed_at: iso(account.confirmedAt),
      credits: account.credits,
      credit_debt: account.creditDebt,
      premium: account.paidUser,
      direct_debit_blocked: account.directDebitBlocked,
      read_receipts: account.readReceipts,
      mail_stopped_because: account.notificationsDisabled,
      notification_preferences: preferences.map((p) => ({
        type: p.type,
        channel: p.channel,
        enabled: p.enabled,
        changed_at: iso(p.updatedAt),
      })),
      traffic_source: account.trafficsource,
      tracking: account.tracking,
    }),
  );

  entries.push(
    json('profile.json', {
      id: profile.id,
      name: profile.name,
      birth_date: profile.birthDate,
      gender: profile.gender,
      sexuality: profile.sexuality,
      looking_for: profile.lookingFor,
      hair_colour: profile.hairColour,
      eye_colour: profile.eyeColour,
      body_type: profile.bodyType,
      relationship_status: profile.relationshipStatus,
      interests: profile.interests,
      about: profile.about,
      country: profile.country,
      region: profile.region,
      city: profile.city,
      city_position: profile.lat !== null && profile.lon !== null ? { lat: profile.lat, lon: profile.lon } : null,
      main_photo_id: profile.mainPhotoId,
      invisible: profile.isInvisible,
      status: profile.status,
      created_at: iso(profile.createdAt),
      updated_at: iso(profile.updatedAt),
    }),
  );

  // Profile photos: every stored variant of each.
  const photoList = [];
  for (const photo of (await listOwnPhotos(ctx, me)).photos.reverse()) {
    const files = await readOwnPhotoFiles(ctx, owner, photo.storageKey);
    const names = files.map((file) => `photos/${photo.id}/${file.variant}.webp`);
    files.forEach((file, i) => {
      entries.push({ name: names[i], data: file.bytes, stored: true });
    });
    photoList.push({
      id: photo.id,
      status: photo.status,
      main: photo.id === profile.mainPhotoId,
      width: photo.width,
      height: photo.height,
      uploaded_at: iso(photo.createdAt),
      files: names,
    });
  }
  entries.push(json('photos.json', photoList));

  // Conversations: what the member sent and what they were sent, each sender named as the member saw them.
  const talks = await rows.conversationsOf(db, me);
  const sent = await rows.messagesIn(
    db,
    talks.map((c) => c.id),
  );
  const conversationsOut = [];
  for (const talk of talks) {
    const list = [];
    for (const message of sent.filter((m) => m.conversationId === talk.id)) {
      const mine = message.senderProfileId === me;
      // A message moderation rejected never reached the member: only their own are theirs to see.
      if (!mine && message.status !== 'sent') continue;
      let photoFile: string | null = null;
      if (message.kind === 'photo' && mine && message.photoKey) {
        const bytes = await readChatPhoto(ctx, owner, message.photoKey, 'large');
        if (bytes) {
          photoFile = `chat-photos/${message.id}.webp`;
          entries.push({ name: photoFile, data: bytes, stored: true });
        }
      }
      list.push({
        id: message.id,
        sender: mine ? 'me' : talk.otherId,
        ...(mine ? {} : { sender_name: talk.otherName, ...(talk.otherFictional ? { fictional: true } : {}) }),
        time: iso(message.createdAt),
        kind: message.kind,
        text: message.kind === 'text' ? message.body : null,
        ...(message.gift ? { gift: message.gift } : {}),
        ...(photoFile ? { photo_file: photoFile } : {}),
        ...(mine ? { credits_paid: message.price, status: message.status } : {}),
      });
    }
    conversationsOut.push({
      conversation_id: talk.id,
      with: { profile_id: talk.otherId, name: talk.otherName, ...(talk.otherFictional ? { fictional: true } : {}) },
      started_by: talk.startedByProfileId === me ? 'me' : talk.otherId,
      started_at: iso(talk.createdAt),
      messages: list,
    });
  }
  entries.push(json('messages.json', conversationsOut));

  const fictional = (f: boolean) => (f ? { fictional: true } : {});
  const [given, received, blocked, ledger, orders, filed] = await Promise.all([
    rows.likesGivenBy(db, me),
    rows.likesReceivedBy(db, me),
    rows.blocksBy(db, me),
    rows.ledgerOf(db, userId),
    rows.ordersOf(db, userId),
    rows.complaintsBy(db, userId),
  ]);
  entries.push(
    json('likes.json', {
      given: given.map((l) => ({
        profile_id: l.profileId,
        name: l.name,
        ...fictional(l.fictional),
        source: l.source,
        time: iso(l.createdAt),
      })),
      received: received.map((l) => ({ profile_id: l.profileId, name: l.name, ...fictional(l.fictional), time: iso(l.createdAt) })),
    }),
    json(
      'credits.json',
      ledger.map((r) => ({ id: r.id, change: r.delta, balance_after: r.balanceAfter, reason: r.reason, time: iso(r.createdAt) })),
    ),
    json(
      'payments.json',
      orders.map((o) => ({
        order_id: o.id,
        credits: o.credits,
        country: o.country,
        currency: o.currency,
        list_price_minor: o.listPriceMinor,
        discount_minor: o.discountMinor,
        fee_minor: o.feeMinor,
        amount_minor: o.amountMinor,
        method: o.method,
        provider: o.provider,
        provider_payment_id: o.providerPaymentId,
        status: o.status,
        created_at: iso(o.createdAt),
        paid_at: iso(o.paidAt),
        charged_back_at: iso(o.chargedBackAt),
      })),
    ),
    json(
      'complaints.json',
      filed.map((c) => ({
        reference: c.reference,
        kind: c.kind,
        category: c.category,
        name: c.name,
        email: c.email,
        subject: c.subject,
        message: c.message,
        url: c.url,
        reported_profile_id: c.reportedProfileId,
        conversation_id: c.conversationId,
        message_id: c.messageId,
        status: c.status,
        filed_at: iso(c.createdAt),
        handled_at: iso(c.handledAt),
      })),
    ),
    json(
      'blocks.json',
      blocked.map((b) => ({ profile_id: b.profileId, name: b.name, time: iso(b.createdAt) })),
    ),
  );
  return { entries, account, name: profile.name };
}

/**
 * Writes the ZIP to a temporary file under DATA_DIR/tmp, then stores it under its key: what is under the key is
 * always complete. Its size.
 */
async function writeZip(ctx: AppContext, fileKey: string, entries: ZipEntry[]): Promise<number> {
  const tempDir = join(ctx.config.dataDir, 'tmp');
  await mkdir(tempDir, { recursive: true, mode: 0o700 });
  const temp = join(tempDir, `export-${fileKey}.${randomBytes(6).toString('hex')}.zip`);
  const zip = new ZipFile();
  const mtime = ctx.now();
  for (const entry of entries) zip.addBuffer(entry.data, entry.name, { mtime, compress: !entry.stored });
  zip.end();
  try {
    await pipeline(zip.outputStream, createWriteStream(temp, { mode: 0o600, flags: 'wx' }));
    return await mediaStoreOf(ctx.config).putFile(exportKey(fileKey), temp);
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * The `data-export.prepare` job: the ZIP, then (in one unit of work) the export ready for DATA_EXPORT_DAYS days
 * with the hash of its link's token, and the mail with the link. Run again, an export no longer pending is left
 * as it is.
 */
export async function prepareExport(ctx: AppContext, exportId: number): Promise<void> {
  const row = await rows.findExport(dbOf(ctx), exportId);
  if (row?.status !== 'pending') return;
  const data = await collect(ctx, row.userId);
  const site = data ? await ctx.sites.get(data.account.siteId) : undefined;
  if (!data || !site || data.account.status === 'deleted') {
    // The account is gone or being deleted: nothing is prepared or mailed.
    await rows.markFailed(dbOf(ctx), exportId);
    return;
  }
  const fileKey = randomBytes(16).toString('hex');
  const sizeBytes = await writeZip(ctx, fileKey, data.entries);
  const token = newToken();
  const now = ctx.now();
  try {
    await withTransaction(ctx, async (tx) => {
      const ready = await rows.markReady(tx, exportId, {
        fileKey,
        sizeBytes,
        tokenHash: hashToken(token),
        readyAt: now,
        expiresAt: new Date(now.getTime() + DATA_EXPORT_DAYS * DAY_MS),
      });
      if (!ready) throw new Error('no longer pending');
      await ctx.mailer.queue({
        kind: 'data_export',
        site,
        locale: data.account.language,
        to: data.account.email,
        userId: row.userId,
        vars: {
          name: data.name,
          link: siteUrl(ctx.config, site, `/api/data-export.php?download=1&token=${token}`),
          days: DATA_EXPORT_DAYS,
        },
      });
    });
  } catch (error) {
    await removeExportFiles(ctx, [fileKey]);
    if (error instanceof Error && error.message === 'no longer pending') return;
    throw error;
  }
}

/**
 * The mailed link (GET data-export.php?download=1&token=…): the ZIP, to the member who asked for it alone, until it
 * expires. Anyone else's link, or none, is 404 as for a link that does not exist; an expired one is 410.
 */
export async function openDownload(ctx: AppContext, userId: number, token: string): Promise<Download> {
  const row = await rows.findExportByToken(dbOf(ctx), hashToken(token));
  if (!row || row.userId !== userId) throw notFound('This download link is not valid');
  return openFile(ctx, row);
}

/** The settings page's link (GET data-export.php?download=latest): the member's latest export, as the mailed link. */
export async function openLatestDownload(ctx: AppContext, userId: number): Promise<Download> {
  const row = await rows.findLatestExport(dbOf(ctx), userId);
  if (!row || row.status === 'pending' || row.status === 'failed') throw notFound('There is no data export to download');
  return openFile(ctx, row);
}

interface Download {
  stream: Readable;
  size: number;
  readyAt: Date;
}

async function openFile(ctx: AppContext, row: rows.DataExportRow): Promise<Download> {
  const expired = row.status === 'expired' || (row.expiresAt?.getTime() ?? 0) <= ctx.now().getTime();
  if (expired || row.status !== 'ready' || !row.fileKey) throw exportError(410, 'export_expired', E.expired);
  // Streamed from the store (a bucket's object too) behind this check: the ZIP is never public.
  const file = await mediaStoreOf(ctx.config).open(exportKey(row.fileKey));
  if (!file) throw exportError(410, 'export_expired', E.expired);
  try {
    await rows.markDownloaded(dbOf(ctx), row.id, ctx.now());
  } catch (error) {
    file.stream.destroy();
    throw error;
  }
  return { stream: file.stream, size: file.size, readyAt: row.readyAt ?? row.createdAt };
}

/**
 * The daily `data-export.expire` job: exports whose link ran out are marked expired and their files removed;
 * exports their job gave up on are failed, so the member may ask again. Returns how many files went.
 */
export async function expireExports(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const fileKeys = await withTransaction(ctx, async (tx) => {
    await rows.failPendingBefore(tx, new Date(now.getTime() - PENDING_GIVES_UP_MS));
    return rows.expireReadyBefore(tx, now);
  });
  await removeExportFiles(ctx, fileKeys);
  return fileKeys.length;
}

/** The account purge: the member's exports; their files go once the purge commits. */
export async function purgeMember(ctx: AppContext, member: { userId: number }): Promise<void> {
  const fileKeys = await withTransaction(ctx, (tx) => rows.deleteExportsOf(tx, member.userId));
  let removal = Promise.resolve();
  afterCommit(() => {
    removal = removeExportFiles(ctx, fileKeys).catch(() => {});
  });
  await removal;
}
