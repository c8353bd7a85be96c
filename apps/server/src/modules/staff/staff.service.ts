import { randomInt, timingSafeEqual } from 'node:crypto';
import { type AuditEntry, CONSOLE_ERRORS as E, type Staff, type StaffLoginStep, type StaffRole } from '@amora/contracts';
import { generate, generateSecret, generateURI } from 'otplib';
import type { AppContext } from '../../context';
import { HttpError, notFound, tooManyRequests } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import * as rows from './staff.repository';

/**
 * Staff of the operator console (DESIGN "Console"): accounts of their own, never members; a sign-in in two steps
 * (the password, then an authenticator's TOTP code, set up at the first sign-in, with recovery codes shown once);
 * sessions of their own cookie, revocable; every console action an audit row. Roles: admin (everything),
 * moderator (the moderation queue and member views), support (member support).
 */

const MINUTE = 60_000;
/** A session that knows the password only: this long to bring the code. */
const SECOND_FACTOR_WINDOW_MS = 10 * MINUTE;
/** A signed-in session lasts at most this long… */
const SESSION_MS = 12 * 60 * MINUTE;
/** …and ends after this long without a call. */
const IDLE_MS = 2 * 60 * MINUTE;
/** Sign-in attempts: per address asked for and per network address, each per 15 minutes (wrong ones count). */
const LOGIN_WINDOW_MS = 15 * MINUTE;
const LOGINS_PER_EMAIL = 10;
const LOGINS_PER_IP = 30;
/** Codes tried per staff member in the window. */
const CODES_PER_STAFF = 5;
const RECOVERY_CODES = 10;
/** TOTP: 30-second steps; a code of the step before or after is taken too (clocks drift). */
const STEP_SECONDS = 30;
const ISSUER = 'Amora console';

export type StaffRow = rows.StaffRow;

/** Who acts in the console, for the audit log: a staff member, or the command line (null). */
export interface Actor {
  staffId: number | null;
  ip: string;
}

/** The staff member of a console request, with their session. */
export interface StaffAuth {
  staff: StaffRow;
  sessionId: string;
  /** The second step is done: only then may the session do anything but finish the sign-in. */
  signedIn: boolean;
}

export function presentStaff(row: StaffRow): Staff {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    language: row.language,
    is_active: row.isActive,
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
  };
}

const loginFailed = () => new HttpError(401, 'login_failed', 'Wrong email address or password', { message_key: E.loginFailed });
const codeWrong = () => new HttpError(401, 'code_wrong', 'This code is not right', { message_key: E.codeWrong });

/** A readable one-time password for a new staff member: five groups of four letters and digits. */
function newPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: 5 }, () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('')).join('-');
}

function newRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const part = () => Array.from({ length: 5 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${part()}-${part()}`;
}

/** Writes one audit row: who did what to which object, before and after. Inside the caller's unit of work. */
export async function audit(
  ctx: DbContext,
  actor: Actor,
  entry: { action: string; objectType: string; objectId?: string | number; before?: unknown; after?: unknown },
): Promise<void> {
  await rows.insertAudit(dbOf(ctx), {
    staffId: actor.staffId,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId === undefined ? '' : String(entry.objectId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: actor.ip,
  });
}

/** Adds a staff member with a one-time password (answered once, to be handed over); their first sign-in sets up the authenticator. */
export async function createStaff(
  ctx: DbContext,
  actor: Actor,
  input: { email: string; name: string; role: StaffRole; language?: string },
  password: string = newPassword(),
): Promise<{ staff: StaffRow; password: string }> {
  if (await rows.findStaffByEmail(dbOf(ctx), input.email)) {
    throw new HttpError(409, 'email_taken', 'There is already a staff member with this address', {
      field: 'email',
      message_key: E.emailTaken,
    });
  }
  const passwordHash = await hashPassword(password);
  const staff = await withTransaction(ctx, async (tx) => {
    const made = await rows.insertStaff(tx, {
      email: input.email.toLowerCase(),
      name: input.name,
      role: input.role,
      language: input.language ?? 'en',
      passwordHash,
    });
    await audit(ctx, actor, { action: 'staff.create', objectType: 'staff', objectId: made.id, after: presentStaff(made) });
    return made;
  });
  return { staff, password };
}

/**
 * The first step of the sign-in: the password. Right: a session that may only bring the code (a cookie), and
 * what comes next: the code, or on the first sign-in the authenticator's secret to set up. Wrong, unknown or
 * inactive: the same 401, after as long. Attempts are limited per address and per network address.
 */
export async function login(
  ctx: AppContext,
  info: { ip: string; userAgent: string },
  input: { email: string; password: string },
): Promise<{ token: string; step: StaffLoginStep }> {
  for (const [key, max] of [
    [`console-login:${input.email}`, LOGINS_PER_EMAIL],
    [`console-login-ip:${info.ip}`, LOGINS_PER_IP],
  ] as const) {
    const place = await ctx.limiter.take(key, LOGIN_WINDOW_MS, max);
    if (!place.allowed) {
      throw tooManyRequests('Too many sign-in attempts; please wait a few minutes', place.retryAfterSeconds, 'too_many_attempts');
    }
  }
  const staff = await rows.findStaffByEmail(dbOf(ctx), input.email);
  const right = await verifyPassword(staff?.passwordHash ?? null, input.password);
  if (!staff || !right || !staff.isActive) throw loginFailed();
  // A right password gives its place back: only wrong guesses count towards the limit.
  await ctx.limiter.release(`console-login:${input.email}`);

  let secret = staff.totpSecret;
  const enrolled = secret !== null && staff.totpLastStep !== null;
  if (!secret) {
    secret = generateSecret();
    await rows.updateStaff(dbOf(ctx), staff.id, { totpSecret: secret, totpLastStep: null });
  }
  const token = newToken();
  const now = ctx.now();
  await rows.insertSession(dbOf(ctx), {
    id: hashToken(token),
    staffId: staff.id,
    ip: info.ip,
    userAgent: info.userAgent.slice(0, 300),
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SECOND_FACTOR_WINDOW_MS),
  });
  if (enrolled) return { token, step: { step: 'second_factor' } };
  return {
    token,
    step: { step: 'enroll', enroll: { secret, otpauth_url: generateURI({ issuer: ISSUER, label: staff.email, secret }) } },
  };
}

/** The TOTP time step whose code `code` is (this step, the one before or the one after), or null. */
async function stepOf(secret: string, code: string, now: Date): Promise<number | null> {
  const current = Math.floor(now.getTime() / 1000 / STEP_SECONDS);
  for (const step of [current, current - 1, current + 1]) {
    const expected = await generate({ secret, epoch: step * STEP_SECONDS });
    if (expected.length === code.length && timingSafeEqual(Buffer.from(expected), Buffer.from(code))) return step;
  }
  return null;
}

/** The authenticator's current code for a secret (the dev page of the demo staff, and tests). */
export function currentCode(secret: string, now: Date): Promise<string> {
  return generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
}

/** The demo staff's current code and how long it stays good (the development page). */
export async function demoStaffCode(ctx: AppContext) {
  const now = ctx.now();
  return {
    code: await currentCode(rows.demoStaff.secret, now),
    valid_for_seconds: STEP_SECONDS - (Math.floor(now.getTime() / 1000) % STEP_SECONDS),
    staff: rows.demoStaff.emails,
  };
}

/**
 * The second step: a code of the authenticator (each taken once: a replayed code is refused) or a recovery code
 * (each used once). The first right code after the password sets the authenticator up and answers ten recovery
 * codes, once. Then the session is signed in, for SESSION_MS.
 */
export async function completeLogin(
  ctx: AppContext,
  token: string | undefined,
  input: { code: string } | { recovery_code: string },
  ip: string,
): Promise<StaffLoginStep> {
  const found = token ? await rows.findLiveSession(dbOf(ctx), hashToken(token), ctx.now()) : undefined;
  if (!found || found.session.secondFactorAt) {
    throw new HttpError(401, 'sign_in_required', 'Please sign in with your password first', { message_key: E.signInRequired });
  }
  const { staff, session } = found;
  const place = await ctx.limiter.take(`console-code:${staff.id}`, LOGIN_WINDOW_MS, CODES_PER_STAFF);
  if (!place.allowed) {
    throw tooManyRequests('Too many codes tried; please wait a few minutes', place.retryAfterSeconds, 'too_many_attempts');
  }
  const now = ctx.now();
  const enrolling = staff.totpLastStep === null;
  let recoveryCodes: string[] | undefined;
  if ('code' in input) {
    const step = staff.totpSecret ? await stepOf(staff.totpSecret, input.code, now) : null;
    if (step === null || !(await rows.acceptTotpStep(dbOf(ctx), staff.id, step))) throw codeWrong();
    if (enrolling) {
      recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      await rows.replaceRecoveryCodes(dbOf(ctx), staff.id, recoveryCodes.map(hashToken));
    }
  } else if (enrolling || !(await rows.useRecoveryCode(dbOf(ctx), staff.id, hashToken(input.recovery_code), now))) {
    throw codeWrong();
  }
  await ctx.limiter.release(`console-code:${staff.id}`);
  await withTransaction(ctx, async (tx) => {
    await rows.updateSession(tx, session.id, { secondFactorAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_MS) });
    const signedIn = await rows.updateStaff(tx, staff.id, { lastLoginAt: now });
    await audit(
      ctx,
      { staffId: staff.id, ip },
      {
        action: 'recovery_code' in input ? 'staff.sign_in_recovery_code' : enrolling ? 'staff.enroll' : 'staff.sign_in',
        objectType: 'staff',
        objectId: staff.id,
        after: { session: session.id.slice(0, 16) },
      },
    );
    return signedIn;
  });
  const fresh = await rows.findStaff(dbOf(ctx), staff.id);
  return {
    step: 'done',
    staff: fresh ? presentStaff(fresh) : presentStaff(staff),
    ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}),
  };
}

/**
 * The staff member behind a console cookie: a live session (neither revoked nor expired, nor idle for IDLE_MS) of
 * an active staff member; `signedIn` once the second step is done. Renews the session's last call.
 */
export async function findStaffAuth(ctx: AppContext, token: string): Promise<StaffAuth | null> {
  const now = ctx.now();
  const found = await rows.findLiveSession(dbOf(ctx), hashToken(token), now);
  if (!found?.staff.isActive) return null;
  const { session, staff } = found;
  if (session.secondFactorAt && session.lastSeenAt.getTime() + IDLE_MS < now.getTime()) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > MINUTE) await rows.updateSession(dbOf(ctx), session.id, { lastSeenAt: now });
  return { staff, sessionId: session.id, signedIn: session.secondFactorAt !== null };
}

/**
 * Whether a signed-in session (by its stored id) is still live, as findStaffAuth would find it, and its staff
 * member's role may do what `roles` lists: what a long-lived console stream checks now and then, and when the
 * staff member changes. Does not count as a call (the session's last call stays).
 */
export async function staffSessionAllows(ctx: AppContext, sessionId: string, roles: readonly StaffRole[]): Promise<boolean> {
  const now = ctx.now();
  const found = await rows.findLiveSession(dbOf(ctx), sessionId, now);
  if (!found?.staff.isActive || !found.session.secondFactorAt) return false;
  if (found.session.lastSeenAt.getTime() + IDLE_MS < now.getTime()) return false;
  return hasRole(found.staff, roles);
}

/** A staff member's sessions or role changed: every process checks the console streams it holds for them. */
const staffChanged = (ctx: AppContext, staffId: number) => ctx.events.publish({ type: 'staff.changed', staffId });

export async function logout(ctx: AppContext, auth: StaffAuth): Promise<void> {
  await rows.revokeSessions(dbOf(ctx), auth.staff.id, ctx.now(), auth.sessionId);
  staffChanged(ctx, auth.staff.id);
}

/** My live sessions: the id shown is the first 16 characters of the stored hash. */
export async function sessionsOf(ctx: AppContext, auth: StaffAuth) {
  const sessions = await rows.listLiveSessions(dbOf(ctx), auth.staff.id, ctx.now());
  return sessions
    .filter((session) => session.secondFactorAt !== null)
    .map((session) => ({
      id: session.id.slice(0, 16),
      current: session.id === auth.sessionId,
      ip: session.ip,
      user_agent: session.userAgent,
      created_at: session.createdAt.toISOString(),
      last_seen_at: session.lastSeenAt.toISOString(),
    }));
}

/** Ends one of my sessions (by its shown id); another's is not found. */
export async function endSession(ctx: AppContext, auth: StaffAuth, shownId: string, ip: string): Promise<void> {
  const ended = await withTransaction(ctx, async (tx) => {
    const count = await rows.revokeSessions(tx, auth.staff.id, ctx.now(), shownId);
    if (count > 0)
      await audit(
        ctx,
        { staffId: auth.staff.id, ip },
        { action: 'staff.end_session', objectType: 'staff', objectId: auth.staff.id, after: { session: shownId } },
      );
    return count;
  });
  if (ended === 0) throw notFound('This session could not be found');
  staffChanged(ctx, auth.staff.id);
}

export async function listStaff(ctx: AppContext): Promise<Staff[]> {
  return (await rows.listStaff(dbOf(ctx))).map(presentStaff);
}

/**
 * Changes a staff member (admin). Deactivating one or resetting their authenticator ends their sessions; the last
 * active admin cannot be deactivated or lose the role.
 */
export async function changeStaff(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: { name?: string; role?: StaffRole; language?: string; is_active?: boolean; reset_second_factor?: true },
): Promise<Staff> {
  return withTransaction(ctx, async (tx) => {
    const before = await rows.findStaff(tx, id);
    if (!before) throw notFound('This staff member could not be found');
    const losesAdmin = before.role === 'admin' && before.isActive && (input.is_active === false || (input.role && input.role !== 'admin'));
    if (losesAdmin && (await rows.countOtherActiveAdmins(tx, id)) === 0) {
      throw new HttpError(409, 'last_admin', 'The last admin stays an admin', { message_key: E.lastAdmin });
    }
    const after = await rows.updateStaff(tx, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.role !== undefined ? { role: input.role } : {}),
      ...(input.language !== undefined ? { language: input.language } : {}),
      ...(input.is_active !== undefined ? { isActive: input.is_active } : {}),
      ...(input.reset_second_factor ? { totpSecret: null, totpLastStep: null } : {}),
    });
    if (!after) throw notFound('This staff member could not be found');
    if (input.is_active === false || input.reset_second_factor) {
      await rows.revokeSessions(tx, id, ctx.now());
      if (input.reset_second_factor) await rows.replaceRecoveryCodes(tx, id, []);
    }
    await audit(ctx, actor, {
      action: input.reset_second_factor ? 'staff.reset_second_factor' : 'staff.update',
      objectType: 'staff',
      objectId: id,
      before: presentStaff(before),
      after: presentStaff(after),
    });
    // After the commit: their open console streams are checked again (a session ended, a role that may no longer read them).
    staffChanged(ctx, id);
    return presentStaff(after);
  });
}

const AUDIT_PER_PAGE = 50;

export async function auditLog(
  ctx: AppContext,
  query: { page: number; object_type?: string; object_id?: string; staff_id?: number },
): Promise<{ entries: AuditEntry[]; page: number; pages: number; total: number }> {
  const { rows: found, total } = await rows.auditPage(
    dbOf(ctx),
    { objectType: query.object_type, objectId: query.object_id, staffId: query.staff_id },
    query.page,
    AUDIT_PER_PAGE,
  );
  return {
    entries: found.map(({ entry, staffName, staffEmail }) => ({
      id: entry.id,
      staff: entry.staffId !== null && staffName !== null ? { id: entry.staffId, name: staffName, email: staffEmail ?? '' } : null,
      action: entry.action,
      object_type: entry.objectType,
      object_id: entry.objectId,
      before: entry.before,
      after: entry.after,
      ip: entry.ip,
      created_at: entry.createdAt.toISOString(),
    })),
    page: query.page,
    pages: Math.max(1, Math.ceil(total / AUDIT_PER_PAGE)),
    total,
  };
}

/** Whether the staff member's role may do what `roles` lists (admin may do everything). */
export function hasRole(staff: Pick<StaffRow, 'role'>, roles: readonly StaffRole[]): boolean {
  return staff.role === 'admin' || roles.includes(staff.role);
}
