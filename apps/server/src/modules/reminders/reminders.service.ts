import { ageOn, type NotificationType } from '@amora/contracts';
import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import { dbOf, withTransaction } from '../../lib/transaction';
import { activationLink, findMember, issueToken } from '../auth/auth.service';
import { countUnread } from '../chat/chat.service';
import { suggestProfiles } from '../discovery/discovery.service';
import { countNewLikes } from '../likes/likes.service';
import { type MailRequest, mailLocale } from '../mail/mail.service';
import { nameInMail, unsubscribeLinks, wants } from '../notifications/notifications.service';
import { type Site, siteUrl } from '../sites/sites.service';
import * as rows from './reminders.repository';

/**
 * Mails that come now and then rather than for an event: the reminders (confirm the address, add a photo) and the
 * weekly update. Each kind has a cadence; one hourly job per kind mails the members due, each at most `maxCount`
 * times, `everyMs` apart, only when they want its notification type by mail and their mail has not stopped.
 */

const DAY_MS = 86_400_000;

interface Cadence {
  kind: rows.ReminderKind;
  /** The notification type a member turns this mail off with. */
  type: NotificationType;
  status: 'not_confirmed' | 'confirmed';
  /** The first one goes this long after signup… */
  firstAfterMs: number;
  /** …none once the account is this old… */
  stopAfterMs: number;
  /** …and one follows another after this long, at most `maxCount` in all. */
  everyMs: number;
  maxCount: number;
  /** Only for members with no photo. */
  withoutPhoto?: boolean;
}

const CADENCES = {
  /** An address not confirmed a day after signup, and again two days later; then never. */
  confirmAddress: {
    kind: 'confirm_address',
    type: 'reminders',
    status: 'not_confirmed',
    firstAfterMs: DAY_MS,
    stopAfterMs: 14 * DAY_MS,
    everyMs: 2 * DAY_MS,
    maxCount: 2,
  },
  /** A confirmed member without a photo two days after signup, and once more a week later. */
  completeProfile: {
    kind: 'complete_profile',
    type: 'reminders',
    status: 'confirmed',
    firstAfterMs: 2 * DAY_MS,
    stopAfterMs: 30 * DAY_MS,
    everyMs: 7 * DAY_MS,
    maxCount: 2,
    withoutPhoto: true,
  },
  /** Every week from the member's first week on, while there is something to tell. */
  weeklyUpdate: {
    kind: 'weekly_update',
    type: 'weekly_updates',
    status: 'confirmed',
    firstAfterMs: 7 * DAY_MS,
    stopAfterMs: Number.POSITIVE_INFINITY,
    everyMs: 7 * DAY_MS,
    maxCount: 1_000_000,
  },
} as const satisfies Record<string, Cadence>;

/** Members looked at per run of a kind's hourly job (the next run takes the rest). */
const PER_RUN = 500;

type OccasionalRecipient = rows.DueMember & { site: Site };

/** What a kind's mail says to one member; null when there is nothing to tell them (no mail, looked at again next time). */
type ComposeMail = (recipient: OccasionalRecipient) => Promise<(Pick<MailRequest, 'kind' | 'vars'> & { items?: string[] }) | null>;

/**
 * One run of a kind's job: each member due gets the mail `compose` writes, queued in the unit of work that counts
 * it (rows.claim: two runs at once never send it twice). Answers how many were mailed.
 */
async function mailDue(ctx: AppContext, cadence: Cadence, compose: ComposeMail): Promise<number> {
  const now = ctx.now();
  const at = (msAgo: number) => new Date(Number.isFinite(msAgo) ? now.getTime() - msAgo : 0);
  const lastBefore = at(cadence.everyMs);
  const due = await rows.findDue(dbOf(ctx), cadence.kind, {
    status: cadence.status,
    signedUpAfter: at(cadence.stopAfterMs),
    signedUpBefore: at(cadence.firstAfterMs),
    lastBefore,
    maxCount: cadence.maxCount,
    withoutPhoto: cadence.withoutPhoto,
    limit: PER_RUN,
  });
  let mailed = 0;
  for (const member of due) {
    const site = await ctx.sites.get(member.siteId);
    const wanted = member.notificationsDisabled.length === 0 && (await wants(ctx, member.userId, cadence.type, 'email'));
    const recipient = site ? { ...member, site } : null;
    const mail = recipient && wanted ? await compose(recipient) : null;
    if (!recipient || !site || !mail) {
      await rows.skip(dbOf(ctx), member.userId, cadence.kind, now);
      continue;
    }
    const unsubscribe = await unsubscribeLinks(ctx, site, member.userId, cadence.type);
    const sent = await withTransaction(ctx, async (tx) => {
      if (!(await rows.claim(tx, member.userId, cadence.kind, { now, lastBefore, maxCount: cadence.maxCount }))) return false;
      await ctx.mailer.queue({
        kind: mail.kind,
        site,
        locale: recipient.language,
        to: recipient.email,
        userId: member.userId,
        vars: mail.vars,
        extras: { items: mail.items, unsubscribe },
      });
      return true;
    });
    if (sent) mailed++;
  }
  return mailed;
}

/** The hourly `reminders.confirm-address` job: a new activation link for an address still not confirmed (CADENCES.confirmAddress). */
export function remindToConfirm(ctx: AppContext): Promise<number> {
  return mailDue(ctx, CADENCES.confirmAddress, async (member) => {
    // A new link: the one of the signup mail still works too (activation links are not one at a time).
    const token = await issueToken(ctx, member.userId, 'activation');
    return { kind: 'reminder_confirm', vars: { name: member.name, link: activationLink(ctx, member.site, token) } };
  });
}

/**
 * The hourly `reminders.complete-profile` job: a member without a photo is told what their profile lacks
 * (CADENCES.completeProfile); members decide by the photo first.
 */
export function remindToCompleteProfile(ctx: AppContext): Promise<number> {
  return mailDue(ctx, CADENCES.completeProfile, async (member) => {
    const account = await findMember(ctx, member.userId);
    if (!account) return null;
    const lang = mailLocale('reminder_profile', member.language);
    const missing = ['reminder_profile.itemPhoto'];
    if (account.profile.about.trim() === '') missing.push('reminder_profile.itemAbout');
    return {
      kind: 'reminder_profile',
      vars: { name: member.name, link: siteUrl(ctx.config, member.site, '/profile') },
      items: missing.map((key) => translate(lang, key, {}, 'emails')),
    };
  });
}

/** Suggestions in a weekly update. */
const WEEKLY_SUGGESTIONS = 3;

/**
 * The hourly `reminders.weekly-update` job (the weekly_updates type): once a week, what waits for the member (new
 * likes, unread messages) and a few members the match-finder would suggest them now, each as it is (a fictional
 * profile labelled). A member with nothing of that gets no mail that week.
 */
export function sendWeeklyUpdates(ctx: AppContext): Promise<number> {
  return mailDue(ctx, CADENCES.weeklyUpdate, async (member) => {
    const account = await findMember(ctx, member.userId);
    if (!account) return null;
    const { profile } = account;
    const [newLikes, unread, suggestions] = await Promise.all([
      countNewLikes(ctx, profile.id),
      countUnread(ctx, { id: profile.id, siteId: profile.siteId }),
      suggestProfiles(ctx, profile, { limit: WEEKLY_SUGGESTIONS, excludeSeen: true }),
    ]);
    if (newLikes === 0 && unread === 0 && suggestions.length === 0) return null;
    const lang = mailLocale('weekly_update', member.language);
    const nameOf = nameInMail(member.site, lang);
    const now = ctx.now();
    const items = [
      ...(newLikes > 0 ? [translate(lang, 'weekly_update.itemLikes', { count: newLikes }, 'emails')] : []),
      ...(unread > 0 ? [translate(lang, 'weekly_update.itemUnread', { count: unread }, 'emails')] : []),
      ...suggestions.map((row) =>
        translate(
          lang,
          row.city ? 'weekly_update.itemSuggestion' : 'weekly_update.itemSuggestionNoCity',
          { name: nameOf(row), age: ageOn(row.birthDate, now), city: row.city ?? '' },
          'emails',
        ),
      ),
    ];
    // The button leads to what waits first, else to the suggestions.
    const path = unread > 0 ? '/chats' : newLikes > 0 ? '/likes' : '/match-finder';
    return {
      kind: 'weekly_update',
      vars: { name: member.name, link: siteUrl(ctx.config, member.site, path) },
      items,
    };
  });
}
