import { ACCOUNT_ERRORS as E, type SignupInput } from '@amora/contracts';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../lib/db-errors';
import { HttpError } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { hashToken } from '../../lib/tokens';
import { parseLanderCookie, parseTracking } from '../../lib/tracking';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { confirmUser, insertUser } from '../accounts/accounts.service';
import { sendMessage } from '../chat/chat.service';
import { credit } from '../credits/credits.service';
import { insertProfile, setProfileStatusOf } from '../profiles/profiles.service';
import { startSession } from '../sessions/sessions.service';
import { selectedCountry } from '../settings/settings.service';
import {
  consumeToken,
  findAccount,
  findProfileIdOnSite,
  findToken,
  findUndeliveredSignupMessages,
  findUserByEmail,
  insertSignupMessage,
  markSignupMessageDelivered,
  type ProfileRow,
  type UserRow,
} from './auth.repository';
import { accountError, activationLink, HOUR, issueToken, limit, mail, type RequestInfo, sendActivationAgain } from './auth.service';

/** Signing up (signup.php) and activating the account by the mailed link, with the signup's first message. */

/** A new account and its profile (a unique index refuses a second account with the address on the site). */
async function insertAccount(
  ctx: DbContext,
  user: Parameters<typeof insertUser>[1],
  profile: Omit<Parameters<typeof insertProfile>[1], 'userId'>,
): Promise<{ user: UserRow; profile: ProfileRow }> {
  const created = await insertUser(ctx, user);
  return { user: created, profile: await insertProfile(ctx, { ...profile, userId: created.id }) };
}

/** The address is confirmed: the account is confirmed and its profile active. */
async function confirmAccount(ctx: DbContext, userId: number, now: Date): Promise<void> {
  await confirmUser(ctx, userId, now);
  await setProfileStatusOf(ctx, userId, 'active');
}

export async function signup(
  ctx: AppContext,
  info: RequestInfo,
  input: SignupInput & { email: string; name: string; date_of_birth: string },
) {
  const { site } = info;
  const tracking = parseTracking(info.trackingCookie);
  const hasTrafficsource = Object.keys(tracking).length > 0;
  // The lander the visitor came through, kept beside the tracking data (docs/decisions.md, "Landers"); it makes
  // nobody a traffic-source visitor.
  const landing = parseLanderCookie(info.landerCookie);
  if (site.signups !== 'all' && !(site.signups === 'with_trafficsource' && hasTrafficsource)) {
    throw accountError(403, 'signups_closed', E.signupsClosed);
  }
  await limit(ctx, `signup-ip:${info.ip}`, HOUR, ctx.config.signupRateLimit);
  const existing = await findUserByEmail(dbOf(ctx), site.id, input.email);
  if (existing) {
    if (existing.status === 'deleted') throw accountError(409, 'account_being_removed', E.accountBeingRemoved, { field: 'email' });
    throw accountError(409, 'email_taken', E.emailTaken, { field: 'email' });
  }
  const language = input.language ?? info.language;
  const passwordHash = await hashPassword(input.password);
  // Where the visitor is, if the site serves that country; /complete-signup then asks where they live.
  const country = selectedCountry(site, info.geoipCountry ?? null);

  const user = await withTransaction(ctx, async (tx) => {
    const created = await insertAccount(
      ctx,
      {
        siteId: site.id,
        email: input.email,
        passwordHash,
        status: 'not_confirmed',
        language,
        dateOfBirth: input.date_of_birth,
        tracking: landing ? { ...tracking, lander: landing.lander, slug: landing.slug } : tracking,
        trafficsource: tracking.network ?? null,
        signupDate: ctx.now(),
      },
      { siteId: site.id, name: input.name, country, status: 'disabled', birthDate: input.date_of_birth },
    );
    if (site.signupCredits > 0) {
      await credit(ctx, {
        userId: created.user.id,
        siteId: site.id,
        amount: site.signupCredits,
        reason: 'signup',
        idempotencyKey: `signup:${created.user.id}`,
      });
    }
    if (input.signup_message && input.profile_id) {
      const target = await findProfileIdOnSite(tx, input.profile_id, site.id);
      if (target && target !== created.profile.id) {
        await insertSignupMessage(tx, { userId: created.user.id, toProfileId: target, text: input.signup_message });
      }
    }
    return created.user;
  }).catch((error: unknown) => {
    if (isUniqueViolation(error, 'users_site_email_idx')) {
      throw accountError(409, 'email_taken', E.emailTaken, { field: 'email' });
    }
    throw error;
  });

  const token = await issueToken(ctx, user.id, 'activation');
  await mail(ctx, info, 'activation', user, user.email, input.name, { link: activationLink(ctx, site, token) });
  return { user, session: await startSession(ctx, user.id, info.userAgent) };
}

/** Activation link: confirms the address and enables the profile. Opening it twice is fine. */
export async function activate(ctx: AppContext, token: string): Promise<{ ok: boolean; language: string }> {
  const tokenHash = hashToken(token);
  const used = await consumeToken(dbOf(ctx), 'activation', tokenHash, ctx.now());
  if (!used) {
    const known = await findToken(dbOf(ctx), 'activation', tokenHash);
    if (known?.usedAt) {
      const account = await findAccount(dbOf(ctx), known.userId);
      if (account?.user.status === 'confirmed') return { ok: true, language: account.user.language };
    }
    return { ok: false, language: 'en' };
  }
  const account = await findAccount(dbOf(ctx), used.userId);
  if (!account || account.user.status === 'deleted') return { ok: false, language: 'en' };
  await withTransaction(ctx, () => confirmAccount(ctx, used.userId, ctx.now()));
  ctx.events.publish({ type: 'account.changed', siteId: account.user.siteId, userId: used.userId });
  await deliverSignupMessages(ctx, used.userId);
  return { ok: true, language: account.user.language };
}

/**
 * The message written while signing up from a profile becomes the first message of the conversation with that
 * profile once the account is activated, sent (and paid from the signup credits) as any message, with the client
 * id `signup-<id>`, so it is sent once whatever happens twice. One the chat refuses (the profile went away or is
 * blocked, not enough credits, too long for the site) is not sent and does not stop the activation.
 */
async function deliverSignupMessages(ctx: AppContext, userId: number): Promise<void> {
  const pending = await findUndeliveredSignupMessages(dbOf(ctx), userId);
  if (pending.length === 0) return;
  const account = await findAccount(dbOf(ctx), userId);
  if (!account) return;
  for (const message of pending) {
    try {
      await sendMessage(ctx, account, { profile: message.toProfileId, body: message.text, clientId: `signup-${message.id}` });
      await markSignupMessageDelivered(dbOf(ctx), message.id, ctx.now());
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
    }
  }
}

export async function resendActivation(ctx: AppContext, info: RequestInfo, user: UserRow, name: string): Promise<void> {
  await sendActivationAgain(ctx, info.site, user, name);
}
