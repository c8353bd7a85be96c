import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  DIRECT_DEBIT_CODE_LENGTH,
  DIRECT_DEBIT_CODE_MAX_ATTEMPTS,
  DIRECT_DEBIT_CODE_TTL_SECONDS,
  DIRECT_DEBIT_CODES_PER_HOUR,
  DIRECT_DEBIT_OPEN_LIMIT,
  DIRECT_DEBIT_RESEND_SECONDS,
  type DirectDebitDetailsInput,
  type DirectDebitMandate,
  type DirectDebitStatus,
  type DirectDebitVerification,
  INVALID_CODE,
  ibanLast4,
} from '@amora/contracts';
import { electronicFormatIBAN, extractIBAN, isSEPACountry, isValidIBAN } from 'ibantools';
import type { CountryCode } from 'libphonenumber-js/max';
import type { AppContext } from '../../context';
import { badRequest, HttpError, notFound, tooManyRequests } from '../../lib/errors';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { unblockDirectDebit } from '../accounts/accounts.service';
import { countOpenDirectDebits, findCustomer, saveCustomer } from '../payments/payments.service';
import { forgetTexts, purgeMember as purgeSms, smsOf, smsText } from '../sms/sms.service';
import {
  deleteDirectDebitDataOf,
  deleteExpiredVerifications,
  findMemberForDirectDebit,
  findValidMandate,
  findVerification,
  forgetPayload,
  insertMandate,
  insertVerification,
  type MandateRow,
  renewVerification,
  takeAttempt,
  useVerification,
  type VerificationRow,
} from './directdebit.repository';

/* ------------------------------------------------------------------------------------------------------------ */
/* The form, the SMS code and the mandate (GET and POST /api/directdebit.php).                                  */
/* ------------------------------------------------------------------------------------------------------------ */

type Ctx = Pick<AppContext, 'db' | 'limiter' | 'now' | 'jobs' | 'config' | 'payments'>;
type ProviderMandate = Awaited<ReturnType<AppContext['payments']['createMandate']>>;

const BLOCKED_MESSAGE = 'Your account is blocked for direct debit';
const LIMIT_MESSAGE = `You have ${DIRECT_DEBIT_OPEN_LIMIT} direct debits that are not settled yet. You can pay by direct debit again once one of them is settled.`;
const INVALID_CODE_MESSAGE = 'Invalid code';

const blocked = () => new HttpError(403, 'direct_debit_blocked', BLOCKED_MESSAGE);
const limitReached = () => new HttpError(409, 'direct_debit_limit', LIMIT_MESSAGE, { limit: DIRECT_DEBIT_OPEN_LIMIT });
const invalidCode = () => new HttpError(400, INVALID_CODE, INVALID_CODE_MESSAGE, { field: 'otp' });
const providerFailed = () => new HttpError(502, 'provider_unavailable', 'An error occurred, please try again later');

/** What the form stores with its code until the code is used (then removed), as the provider needs it. */
interface FormPayload {
  siteId: number;
  account_holder: string;
  /** Electronic format: no spaces, upper case. */
  iban: string;
  street: string;
  house_number: string;
  zip: string;
  city: string;
  phone: string;
}

/**
 * libphonenumber-js with its full metadata (every country's number types, to tell mobiles from landlines) holds
 * ~10 MB once loaded, which only a member setting up a direct debit needs: it is required on first use (its
 * CommonJS build, so these stay synchronous).
 */
let phoneNumbers: typeof import('libphonenumber-js/max') | undefined;
function parsePhoneNumberFromString(...args: Parameters<typeof import('libphonenumber-js/max').parsePhoneNumberFromString>) {
  phoneNumbers ??= createRequire(import.meta.url)('libphonenumber-js/max') as typeof import('libphonenumber-js/max');
  return phoneNumbers.parsePhoneNumberFromString(...args);
}

/** A phone number with all but its country code and last two digits hidden: +31 6•••••78. */
export function maskPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  const cc = parsed ? `+${parsed.countryCallingCode}` : e164.slice(0, 3);
  const national = parsed ? String(parsed.nationalNumber) : e164.slice(3);
  const shown = national.slice(-2);
  const hiddenCount = Math.max(0, national.length - 3);
  return `${cc} ${national.slice(0, 1)}${'•'.repeat(hiddenCount)}${shown}`;
}

/** The IBAN in electronic format when it is a valid IBAN of a SEPA country, else null. */
export function checkedIban(input: string): string | null {
  const iban = electronicFormatIBAN(input);
  if (!iban || !isValidIBAN(iban)) return null;
  const country = extractIBAN(iban).countryCode;
  return country && isSEPACountry(country) ? iban : null;
}

/** A phone number that can take an SMS, read in the member's country unless it starts with +/00: E.164, or null. */
export function checkedMobile(input: string, country: string): string | null {
  const cleaned = input.replace(/^00/, '+');
  const phone = parsePhoneNumberFromString(cleaned, { defaultCountry: country as CountryCode, extract: false });
  if (!phone?.isValid()) return null;
  // A SEPA mandate's member is reached in a SEPA country; codes to far, expensive destinations are SMS toll fraud.
  if (!phone.country || !isSEPACountry(phone.country)) return null;
  const type = phone.getType();
  if (type && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE' && type !== 'PERSONAL_NUMBER') return null;
  return phone.number;
}

function newCode(): { code: string; codeHash: string } {
  const code = String(randomInt(0, 10 ** DIRECT_DEBIT_CODE_LENGTH)).padStart(DIRECT_DEBIT_CODE_LENGTH, '0');
  const salt = randomBytes(16).toString('base64url');
  return { code, codeHash: `${salt}.${hashOf(salt, code)}` };
}

function hashOf(salt: string, code: string): string {
  return createHmac('sha256', salt).update(code).digest('base64url');
}

function codeMatches(stored: string, code: string): boolean {
  const [salt, hash] = stored.split('.');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash);
  const actual = Buffer.from(hashOf(salt, code));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The mandate as shown back to its member. */
function mandateView(row: MandateRow): DirectDebitMandate {
  return { account_holder: row.accountHolder, iban_last4: row.ibanLast4, created_at: row.createdAt.toISOString() };
}

/** GET /api/directdebit.php: my mandate, whether I am blocked, and my open direct debits against the limit. */
export async function directDebitStatus(ctx: Ctx, userId: number): Promise<DirectDebitStatus> {
  const member = await findMemberForDirectDebit(dbOf(ctx), userId);
  if (!member) throw notFound();
  const mandate = await findValidMandate(dbOf(ctx), userId, ctx.payments.name);
  return {
    mandate: mandate ? mandateView(mandate) : null,
    blocked: member.blocked,
    open: await countOpenDirectDebits(ctx, userId),
    limit: DIRECT_DEBIT_OPEN_LIMIT,
    phone_country: member.country || null,
  };
}

/** Lets a member pay by direct debit again after a chargeback blocked it (support's decision); the debt stays. */
export async function unblockDirectDebitFor(ctx: DbContext, userId: number): Promise<void> {
  await unblockDirectDebit(ctx, userId);
}

/** Code SMS one network address may have sent in an hour, whatever the accounts and numbers. */
const CODES_PER_ADDRESS_HOUR = 10;

/**
 * The SMS places a member (and a phone number) may take: one per DIRECT_DEBIT_RESEND_SECONDS, and
 * DIRECT_DEBIT_CODES_PER_HOUR per hour, each for the member and for the number (an SMS costs money, and must
 * not become a way to flood someone's phone).
 */
async function takeSmsPlaces(ctx: Ctx, userId: number, phone: string, ip: string | null): Promise<void> {
  const checks: [string, number, number][] = [
    [`dd:gap:${userId}`, DIRECT_DEBIT_RESEND_SECONDS * 1000, 1],
    [`dd:hour:${userId}`, 3_600_000, DIRECT_DEBIT_CODES_PER_HOUR],
    [`sms:hour:${phone}`, 3_600_000, DIRECT_DEBIT_CODES_PER_HOUR],
  ];
  // Many accounts behind one address must not send codes to many numbers (SMS pumping).
  if (ip) checks.push([`sms:ip:${ip}`, 3_600_000, CODES_PER_ADDRESS_HOUR]);
  for (const [key, windowMs, max] of checks) {
    const result = await ctx.limiter.take(key, windowMs, max);
    if (!result.allowed) throw tooManyRequests('Please wait before asking for a new code', result.retryAfterSeconds);
  }
}

function verificationAnswer(row: VerificationRow): DirectDebitVerification {
  return {
    verification: row.id,
    phone_masked: maskPhone(row.phone),
    expires_at: row.expiresAt.toISOString(),
    resend_after_seconds: DIRECT_DEBIT_RESEND_SECONDS,
  };
}

async function sendCode(
  ctx: Ctx,
  member: { siteId: number; language: string; siteName: string },
  userId: number,
  phone: string,
  code: string,
  expiresAt: Date,
): Promise<void> {
  const minutes = Math.round(DIRECT_DEBIT_CODE_TTL_SECONDS / 60);
  await smsOf(ctx as AppContext).queue({
    kind: 'directdebitCode',
    siteId: member.siteId,
    userId,
    to: phone,
    text: smsText('directdebitCode', member.language, { code, site: member.siteName, count: minutes }),
    validUntil: expiresAt,
  });
}

/** Step 1: the form. Checks it, keeps it with a new code (hash only) and sends the code by SMS. */
export async function startDirectDebit(ctx: Ctx, userId: number, input: Omit<DirectDebitDetailsInput, 'step'>, ip: string | null = null) {
  const member = await findMemberForDirectDebit(dbOf(ctx), userId);
  if (!member) throw notFound();
  if (member.blocked) throw blocked();
  if ((await countOpenDirectDebits(ctx, userId)) >= DIRECT_DEBIT_OPEN_LIMIT) throw limitReached();
  const iban = checkedIban(input.iban);
  if (!iban) throw badRequest('iban', 'directDebit.errors.iban');
  const phone = checkedMobile(input.phone, member.country);
  if (!phone) throw badRequest('phone', 'directDebit.errors.phone');
  await takeSmsPlaces(ctx, userId, phone, ip);
  const { code, codeHash } = newCode();
  const expiresAt = new Date(ctx.now().getTime() + DIRECT_DEBIT_CODE_TTL_SECONDS * 1000);
  const payload: FormPayload = {
    siteId: member.siteId,
    account_holder: input.account_holder,
    iban,
    street: input.street,
    house_number: input.house_number,
    zip: input.zip,
    city: input.city,
    phone,
  };
  const row = await withTransaction(ctx, async (tx) => {
    // Forms whose code expired over an hour ago keep no IBAN, address or phone: anyone's new form clears them.
    await deleteExpiredVerifications(tx, new Date(ctx.now().getTime() - 3_600_000));
    const inserted = await insertVerification(tx, { userId, phone, codeHash, payload: { ...payload }, expiresAt });
    await sendCode(ctx, member, userId, phone, code, expiresAt);
    return inserted;
  });
  return verificationAnswer(row);
}

/** A new code for my open verification (the form stays as it was sent). */
export async function resendCode(
  ctx: Ctx,
  userId: number,
  verificationId: number,
  ip: string | null = null,
): Promise<DirectDebitVerification> {
  const member = await findMemberForDirectDebit(dbOf(ctx), userId);
  const existing = member ? await findVerification(dbOf(ctx), verificationId, userId) : null;
  if (!member || !existing) throw notFound();
  if (member.blocked) throw blocked();
  if (existing.usedAt || Object.keys(existing.payload).length === 0) throw invalidCode();
  await takeSmsPlaces(ctx, userId, existing.phone, ip);
  const { code, codeHash } = newCode();
  const expiresAt = new Date(ctx.now().getTime() + DIRECT_DEBIT_CODE_TTL_SECONDS * 1000);
  const row = await withTransaction(ctx, async (tx) => {
    const renewed = await renewVerification(tx, verificationId, userId, { codeHash, expiresAt });
    if (!renewed) throw invalidCode();
    await sendCode(ctx, member, userId, renewed.phone, code, expiresAt);
    return renewed;
  });
  return verificationAnswer(row);
}

/**
 * Step 2: the code. A wrong, expired, used or exhausted code is 'Invalid code' (each try counted in one
 * conditional update, so parallel guesses get DIRECT_DEBIT_CODE_MAX_ATTEMPTS tries in all). A right one makes
 * the provider's customer (once per member and provider) and the mandate, then stores the mandate with the
 * IBAN's last four characters only, and the form's data is gone. Another member's verification is a 404.
 */
export async function confirmDirectDebit(
  ctx: Ctx,
  userId: number,
  verificationId: number,
  otp: string,
): Promise<{ ok: true; mandate: DirectDebitMandate }> {
  const attempt = await takeAttempt(dbOf(ctx), verificationId, userId, ctx.now(), DIRECT_DEBIT_CODE_MAX_ATTEMPTS);
  if (!attempt) {
    if (!(await findVerification(dbOf(ctx), verificationId, userId))) throw notFound();
    throw invalidCode();
  }
  if (!codeMatches(attempt.codeHash, otp)) {
    if (attempt.attempts >= DIRECT_DEBIT_CODE_MAX_ATTEMPTS) await forgetPayload(dbOf(ctx), attempt.id);
    throw invalidCode();
  }
  const form = attempt.payload as unknown as FormPayload;
  if (!form.iban) throw invalidCode();
  const member = await findMemberForDirectDebit(dbOf(ctx), userId);
  if (!member) throw notFound();
  if (member.blocked) throw blocked();

  const { payments } = ctx;
  let customerId = await findCustomer(ctx, userId, payments.name);
  let mandate: ProviderMandate;
  try {
    if (!customerId) {
      const created = await payments.createCustomer({
        name: form.account_holder,
        email: member.email,
        metadata: { userId, siteId: member.siteId },
      });
      customerId = await saveCustomer(ctx, userId, payments.name, created.id);
    }
    mandate = await payments.createMandate(customerId, {
      method: 'directdebit',
      consumerName: form.account_holder,
      consumerAccount: form.iban,
      signatureDate: ctx.now().toISOString().slice(0, 10),
      mandateReference: `${
        member.siteName
          .replace(/[^A-Za-z0-9]/g, '')
          .slice(0, 10)
          .toUpperCase() || 'SITE'
      }-${userId}-${attempt.id}`,
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw providerFailed();
  }
  const stored = await withTransaction(ctx, async (tx) => {
    // Two right answers at once: only one uses the code and stores its mandate.
    if (!(await useVerification(tx, attempt.id, ctx.now()))) throw invalidCode();
    return insertMandate(tx, {
      siteId: member.siteId,
      userId,
      accountHolder: form.account_holder,
      ibanLast4: ibanLast4(form.iban),
      street: form.street,
      houseNumber: form.house_number,
      zip: form.zip,
      city: form.city,
      phone: form.phone,
      provider: payments.name,
      providerMandateId: mandate.id,
      status: mandate.status === 'invalid' ? 'invalid' : 'valid',
    });
  });
  return { ok: true, mandate: mandateView(stored) };
}

/** The account purge: the member's mandates, codes and SMS. */
export async function purgeMember(ctx: DbContext, member: { userId: number }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await deleteDirectDebitDataOf(tx, member.userId);
    await purgeSms(ctx, member);
  });
}

/** How long after its code expired a form's data may stay (the member may still ask for a new code until then). */
const FORGET_AFTER_MS = 3_600_000;

/**
 * The hourly clean-up (the `directdebit.forget` job, jobs.ts): verifications whose code expired over an hour ago
 * are deleted with their form (before, only the next member's form cleared them, so with no further forms they
 * stayed), and the direct-debit SMS written before then lose their text (the code in clear).
 */
export async function forgetAbandonedForms(ctx: Pick<AppContext, 'db' | 'now'>): Promise<void> {
  const before = new Date(ctx.now().getTime() - FORGET_AFTER_MS);
  await deleteExpiredVerifications(dbOf(ctx), before);
  await forgetTexts(ctx, 'directdebitCode', new Date(before.getTime() - DIRECT_DEBIT_CODE_TTL_SECONDS * 1000));
}
