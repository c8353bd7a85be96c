import {
  MAILING_ERRORS as E,
  isLocale,
  type Locale,
  localeFromTag,
  type Mailing,
  type MailingInput,
  type MailingKind,
  NOTIFICATION_DEFAULTS,
} from '@amora/contracts';
import type { MailingText } from '@amora/db';
import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { dbOf, withTransaction } from '../../lib/transaction';
import { mailLocale, renderMail, withdrawMails } from '../mail/mail.service';
import { unsubscribeLinks, wants } from '../notifications/notifications.service';
import { type Site, siteUrl } from '../sites/sites.service';
import { type Actor, audit } from '../staff/staff.service';
import { presentMailing, presentMailingSummary } from './campaigns.presenter';
import * as rows from './campaigns.repository';

/**
 * News and promotions staff write in the console (docs/decisions.md, "News and promotions"): an admin writes a
 * mailing for a site (its kind, a subject and text per locale the site offers, the default locale always), looks
 * at it in the real mail template, sends a test to their own address, then sends it now or from a moment on. The
 * `campaigns.send` job mails it in batches to the site's members who opted in to its kind by email, each member
 * once: their claim row and their mail are written in one unit of work, under the mailing's row lock, and the
 * cursor moves on with them. The mail comes from the site (its name, its address, its frame), never from a person.
 */

/** Members looked at per run of the job; the next round goes on from the last one's cursor. */
const BATCH = 100;
const PAGE_SIZE = 25;

/** A staff member as a mailing's preview and test greet them. */
export interface Author {
  name: string;
  email: string;
}

/** The site's default locale (its domain language): the one every mailing is written in. */
function defaultLocaleOf(site: Site): Locale {
  return localeFromTag(site.domainLanguage) ?? 'en';
}

/** The locales a mailing of the site may be written in: the default one first, then the others the site offers. */
function localesOf(site: Site): Locale[] {
  return [...new Set([defaultLocaleOf(site), ...site.languages.filter(isLocale)])];
}

const siteInfo = (site: Site) => ({ name: site.name, defaultLocale: defaultLocaleOf(site), locales: localesOf(site) });

const invalid = (field: string, message: string, messageKey: string) =>
  new HttpError(400, 'validation_failed', message, { field, message_key: messageKey });
const notDraft = () =>
  new HttpError(409, 'not_draft', 'This mailing has been sent or scheduled: it can no longer change', { message_key: E.notDraft });

async function siteOf(ctx: AppContext, siteId: number): Promise<Site> {
  const site = await ctx.sites.get(siteId);
  if (!site) throw invalid('site_id', 'There is no such site', E.siteUnknown);
  return site;
}

/** The texts in the locales the site offers, its default locale among them. */
function checkTexts(site: Site, texts: Record<string, MailingText>): void {
  const offered = localesOf(site);
  for (const locale of Object.keys(texts)) {
    if (!(offered as string[]).includes(locale))
      throw invalid(`texts.${locale}`, 'The site does not offer this language', E.localeNotOffered);
  }
  const main = defaultLocaleOf(site);
  if (!texts[main]) throw invalid(`texts.${main}`, `Write the mailing in the site's default language (${main})`, E.defaultLocale);
}

const wantedByDefault = (kind: MailingKind) => NOTIFICATION_DEFAULTS[kind].email;

/** Where the member's own choices are: what a mail to no member (a preview, a test) links to in place of their unsubscribe page. */
function linksForNoMember(ctx: AppContext, site: Site) {
  const preferences = siteUrl(ctx.config, site, '/notifications');
  return { link: preferences, preferences };
}

/** A mailing as the console shows it: texts, progress, and how many members it would reach now. */
export async function mailingDetail(ctx: AppContext, id: number): Promise<Mailing> {
  const db = dbOf(ctx);
  const row = await rows.findMailing(db, id);
  if (!row) throw notFound('No such mailing');
  const site = await siteOf(ctx, row.siteId);
  const progress = await rows.progressOf(db, [row.id]);
  const optedIn = await rows.countAudience(db, row.siteId, row.kind, wantedByDefault(row.kind));
  return presentMailing(row, siteInfo(site), progress.get(row.id), optedIn);
}

/** Mailings newest first, a page at a time (one site's, or all). */
export async function listMailings(ctx: AppContext, query: { page: number; site?: number }) {
  const db = dbOf(ctx);
  const { rows: found, total } = await rows.listMailings(db, {
    siteId: query.site,
    limit: PAGE_SIZE,
    offset: (query.page - 1) * PAGE_SIZE,
  });
  const progress = await rows.progressOf(
    db,
    found.map((row) => row.id),
  );
  const mailings = [];
  for (const row of found) {
    const site = await ctx.sites.get(row.siteId);
    const info = site ? siteInfo(site) : { name: String(row.siteId), defaultLocale: 'en' as const };
    mailings.push(presentMailingSummary(row, info, progress.get(row.id)));
  }
  return { mailings, page: query.page, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)), total };
}

/** A new draft. */
export async function createMailing(ctx: AppContext, actor: Actor, input: MailingInput): Promise<Mailing> {
  const site = await siteOf(ctx, input.site_id);
  const texts = input.texts as Record<string, MailingText>;
  checkTexts(site, texts);
  const id = await withTransaction(ctx, async (tx) => {
    const row = await rows.insertMailing(tx, { siteId: site.id, kind: input.kind, texts, createdBy: actor.staffId, now: ctx.now() });
    await audit(ctx, actor, {
      action: 'mailing.create',
      objectType: 'mailing',
      objectId: row.id,
      after: { site_id: site.id, kind: input.kind, texts },
    });
    return row.id;
  });
  return mailingDetail(ctx, id);
}

/** A draft changed (its site, kind and texts); a mailing scheduled or sent no longer changes. */
export async function changeMailing(ctx: AppContext, actor: Actor, id: number, input: MailingInput): Promise<Mailing> {
  const site = await siteOf(ctx, input.site_id);
  const texts = input.texts as Record<string, MailingText>;
  checkTexts(site, texts);
  await withTransaction(ctx, async (tx) => {
    const before = await rows.lockMailing(tx, id);
    if (!before) throw notFound('No such mailing');
    if (before.status !== 'draft') throw notDraft();
    await rows.updateDraft(tx, id, { siteId: site.id, kind: input.kind, texts, now: ctx.now() });
    await audit(ctx, actor, {
      action: 'mailing.update',
      objectType: 'mailing',
      objectId: id,
      before: { site_id: before.siteId, kind: before.kind, texts: before.texts },
      after: { site_id: site.id, kind: input.kind, texts },
    });
  });
  return mailingDetail(ctx, id);
}

/** The mail one locale's text makes, in the site's template, greeting the author; nothing is stored. */
export async function previewMailing(
  ctx: AppContext,
  author: Author,
  input: { site_id: number; kind: MailingKind; locale: Locale; subject: string; body: string },
) {
  const site = await siteOf(ctx, input.site_id);
  if (!localesOf(site).includes(input.locale)) throw invalid('locale', 'The site does not offer this language', E.localeNotOffered);
  return renderMail({
    kind: input.kind,
    site,
    locale: input.locale,
    vars: { name: author.name, subject: input.subject, body: input.body },
    extras: { unsubscribe: linksForNoMember(ctx, site) },
  });
}

/** One locale's mail to the author's own address, its subject marked as a test; audited. Answers the address. */
export async function testMailing(ctx: AppContext, actor: Actor, author: Author, id: number, locale: Locale): Promise<{ to: string }> {
  const row = await rows.findMailing(dbOf(ctx), id);
  if (!row) throw notFound('No such mailing');
  const text = row.texts[locale];
  if (!text) throw invalid('locale', 'Nothing is written in this language', E.notWritten);
  const site = await siteOf(ctx, row.siteId);
  const subject = translate(mailLocale(row.kind, locale), 'mailing_test.subject', { subject: text.subject }, 'emails');
  await withTransaction(ctx, async () => {
    await ctx.mailer.queue({
      kind: row.kind,
      site,
      locale,
      to: author.email,
      userId: null,
      vars: { name: author.name, subject, body: text.body },
      extras: { unsubscribe: linksForNoMember(ctx, site) },
    });
    await audit(ctx, actor, { action: 'mailing.test', objectType: 'mailing', objectId: id, after: { locale, to: author.email } });
  });
  return { to: author.email };
}

/** A draft goes out now (`sendAt` null) or from that moment on: the first round of the job is due then. */
export async function scheduleMailing(ctx: AppContext, actor: Actor, id: number, sendAtIso: string | null): Promise<Mailing> {
  const now = ctx.now();
  const sendAt = sendAtIso ? new Date(sendAtIso) : now;
  // A minute's grace: a moment picked as "now" in a form is a little in the past by the time it arrives.
  if (sendAt.getTime() < now.getTime() - 60_000) throw invalid('send_at', 'Choose a moment that is still to come', E.sendAtPast);
  await withTransaction(ctx, async (tx) => {
    const row = await rows.lockMailing(tx, id);
    if (!row) throw notFound('No such mailing');
    if (row.status !== 'draft') throw notDraft();
    // The site's languages may have changed since the draft was written.
    checkTexts(await siteOf(ctx, row.siteId), row.texts);
    const at = sendAt.getTime() > now.getTime() ? sendAt : now;
    await rows.updateMailing(tx, id, { status: 'scheduled', sendAt: at, updatedAt: now });
    await ctx.jobs.enqueue(
      tx,
      'campaigns.send',
      { mailingId: id, round: 0 },
      { runAt: at.getTime() > now.getTime() ? at : undefined, dedupeKey: roundKey(id, 0) },
    );
    await audit(ctx, actor, {
      action: 'mailing.send',
      objectType: 'mailing',
      objectId: id,
      before: { status: row.status },
      after: { status: 'scheduled', send_at: at.toISOString() },
    });
  });
  return mailingDetail(ctx, id);
}

/**
 * Cancels a draft, a scheduled mailing or one being sent: no member is taken after this (a batch under way
 * finishes first, holding the mailing's row), and the mails queued that have not left are withdrawn. A mailing
 * whose mails have all left is done and cannot be cancelled.
 */
export async function cancelMailing(ctx: AppContext, actor: Actor, id: number): Promise<Mailing> {
  await withTransaction(ctx, async (tx) => {
    const row = await rows.lockMailing(tx, id);
    if (!row) throw notFound('No such mailing');
    const unsent = row.status === 'cancelled' ? [] : await rows.unsentMailsOf(tx, id);
    if (row.status === 'cancelled' || (row.status === 'sent' && unsent.length === 0)) {
      throw new HttpError(409, 'not_cancellable', 'This mailing is done or cancelled already', { message_key: E.notCancellable });
    }
    const now = ctx.now();
    await rows.updateMailing(tx, id, { status: 'cancelled', cancelledAt: now, updatedAt: now });
    const withdrawn = await withdrawMails(ctx, unsent);
    await audit(ctx, actor, {
      action: 'mailing.cancel',
      objectType: 'mailing',
      objectId: id,
      before: { status: row.status },
      after: { status: 'cancelled', withdrawn },
    });
  });
  return mailingDetail(ctx, id);
}

const roundKey = (mailingId: number, round: number) => `campaigns.send:${mailingId}:${round}`;

/**
 * The `campaigns.send` job: one batch of the mailing's members after its cursor, in one unit of work that holds
 * the mailing's row (so runs that overlap take turns, and a cancellation waits for the batch): each member who
 * still wants the kind by email (notifications' `wants`) is claimed (once per mailing: the claim's primary key)
 * and their mail queued, with the one-click unsubscribe of that kind, in their language when it is written, else
 * the site's default. The cursor moves on and the next round is enqueued in the same commit; a batch that ends the
 * members marks the mailing sent. A process that stops mid-batch commits nothing of it: the job runs it again.
 */
export async function sendMailing(
  ctx: AppContext,
  job: { mailingId: number; round: number },
  options: { batchSize?: number } = {},
): Promise<void> {
  const batchSize = options.batchSize ?? BATCH;
  const id = job.mailingId;
  const first = await rows.findMailing(dbOf(ctx), id);
  if (!first || (first.status !== 'scheduled' && first.status !== 'sending')) return;
  const site = await ctx.sites.get(first.siteId);
  if (!site) throw new Error(`mailing ${id}: its site ${first.siteId} is not there`);
  const main = defaultLocaleOf(site);
  await withTransaction(ctx, async (tx) => {
    const mailing = await rows.lockMailing(tx, id);
    if (!mailing || (mailing.status !== 'scheduled' && mailing.status !== 'sending')) return;
    const { kind, texts } = mailing;
    const now = ctx.now();
    const candidates = await rows.findCandidates(tx, {
      siteId: mailing.siteId,
      kind,
      wantedByDefault: wantedByDefault(kind),
      afterUserId: mailing.cursorUserId,
      limit: batchSize,
    });
    for (const member of candidates) {
      if (!(await wants(ctx, member.userId, kind, 'email'))) continue;
      const own = localeFromTag(member.language);
      const locale = own && texts[own] ? own : main;
      const text = texts[locale];
      if (!text || !(await rows.claimRecipient(tx, id, member.userId, locale))) continue;
      const outboxId = await ctx.mailer.queue(
        {
          kind,
          site,
          locale,
          to: member.email,
          userId: member.userId,
          vars: { name: member.name, subject: text.subject, body: text.body },
          extras: { unsubscribe: await unsubscribeLinks(ctx, site, member.userId, kind) },
        },
        { firstAttemptNow: false },
      );
      await rows.setRecipientMail(tx, id, member.userId, outboxId);
    }
    const done = candidates.length < batchSize;
    await rows.updateMailing(tx, id, {
      status: done ? 'sent' : 'sending',
      cursorUserId: candidates.at(-1)?.userId ?? mailing.cursorUserId,
      startedAt: mailing.startedAt ?? now,
      finishedAt: done ? now : null,
      updatedAt: now,
    });
    if (!done)
      await ctx.jobs.enqueue(tx, 'campaigns.send', { mailingId: id, round: job.round + 1 }, { dedupeKey: roundKey(id, job.round + 1) });
  });
}
