import { z } from 'zod';
import { MIN_AGE } from './constants';
import { idSchema, multilineTextSchema, secretTextSchema, textSchema } from './fields';
import { LOCALES } from './locales';

/** Error texts are catalogue keys; the server answers their English text, the web app translates them. */
export const ACCOUNT_ERRORS = {
  invalidEmail: 'auth.errors.invalidEmail',
  nameLength: 'auth.errors.nameLength',
  nameIsEmail: 'auth.errors.nameIsEmail',
  nameAt: 'auth.errors.nameAt',
  passwordLength: 'auth.errors.passwordLength',
  dateOfBirth: 'auth.errors.dateOfBirth',
  terms: 'auth.errors.terms',
  passwordsDoNotMatch: 'auth.errors.passwordsDoNotMatch',
  loginFailed: 'auth.errors.loginFailed',
  loginBlocked: 'auth.errors.loginBlocked',
  emailTaken: 'auth.errors.emailTaken',
  resetTooMany: 'auth.errors.resetTooMany',
  linkInvalid: 'auth.errors.linkInvalid',
  activationFailed: 'auth.errors.activationFailed',
  signupsClosed: 'auth.errors.signupsClosed',
  accountBeingRemoved: 'auth.errors.accountBeingRemoved',
  banned: 'auth.errors.banned',
  suspended: 'auth.errors.suspended',
  wrongPassword: 'auth.errors.wrongPassword',
  sameEmail: 'auth.errors.sameEmail',
  tooManyRequests: 'auth.errors.tooManyRequests',
  mailChangeUnconfirmed: 'auth.errors.mailChangeUnconfirmed',
  mailChangeAddressLimit: 'auth.errors.mailChangeAddressLimit',
  messageLength: 'auth.errors.messageLength',
  reasonTextLength: 'auth.errors.reasonTextLength',
} as const;
const E = ACCOUNT_ERRORS;

const email = z.string().trim().toLowerCase().pipe(z.email(E.invalidEmail).max(254, E.invalidEmail));
/** A new password: any printable text (a password being checked is compared, never stored, and stays as it was set). */
const password = secretTextSchema().min(8, E.passwordLength).max(128, E.passwordLength);

/** Age in whole years on `today` (UTC) for an ISO date of birth. */
export function ageOn(dateOfBirth: string, today: Date = new Date()): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number);
  let age = today.getUTCFullYear() - y;
  const month = today.getUTCMonth() + 1;
  if (month < m || (month === m && today.getUTCDate() < d)) age--;
  return age;
}

const dateOfBirth = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, E.dateOfBirth)
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(v);
  }, E.dateOfBirth)
  .refine((v) => {
    const age = ageOn(v);
    return age >= MIN_AGE && age <= 120;
  }, E.dateOfBirth);

/** Spec §5 signup rules, shared by the form and the server. */
export const signupSchema = z
  .object({
    email,
    name: textSchema()
      .trim()
      .min(2, E.nameLength)
      .max(30, E.nameLength)
      .refine((v) => !v.startsWith('@'), E.nameAt),
    password,
    date_of_birth: dateOfBirth,
    terms: z.literal(true, E.terms),
    language: z.enum(LOCALES).optional(),
    signup_message: multilineTextSchema().trim().max(1000, E.messageLength).optional(),
    profile_id: idSchema().optional(),
  })
  .refine((v) => v.name.trim().toLowerCase() !== v.email.trim().toLowerCase(), { message: E.nameIsEmail, path: ['name'] });
export type SignupInput = z.input<typeof signupSchema>;

export const loginSchema = z.object({ email, password: z.string().min(1, E.loginFailed).max(128, E.loginFailed) });
export type LoginInput = z.input<typeof loginSchema>;

export const languageSchema = z.object({ language: z.enum(LOCALES) });

export const resetRequestSchema = z.object({ email });
export const resetDoSchema = z
  .object({ token: textSchema().min(20).max(200), password, password_confirm: z.string() })
  .refine((v) => v.password === v.password_confirm, { message: E.passwordsDoNotMatch, path: ['password_confirm'] });
export type ResetDoInput = z.input<typeof resetDoSchema>;

export const mailChangeRequestSchema = z.object({ password: z.string().min(1, E.wrongPassword).max(128), new_email: email });
export type MailChangeRequestInput = z.input<typeof mailChangeRequestSchema>;
export const tokenSchema = z.object({ token: textSchema().min(20).max(200) });
/** GET /api/activate.php?token=: the activation email's link (the route takes a token of 20 to 200 characters, else says error). */
export const activateQuerySchema = z.object({ token: z.string().optional() });
/** PUT /api/mail-change.php: the confirmed address, the member's from now on. */
export const mailChangeConfirmedSchema = z.object({ ok: z.literal(true), email: z.string() });

export const DELETE_REASONS = ['found_partner', 'not_enough_matches', 'too_expensive', 'privacy', 'taking_break', 'other'] as const;
export const deleteAccountSchema = z.object({
  password: z.string().min(1, E.wrongPassword).max(128),
  reason: z.enum(DELETE_REASONS),
  reason_text: multilineTextSchema().trim().max(1000, E.reasonTextLength).optional(),
});
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;

const mainImageSchema = z.object({ filename: z.string(), thumb_filename: z.string(), status: z.string(), match: z.string() }).nullable();

/** Why mail to a member stopped (spec §3 notification disabled reasons): a spam report, a bounce, an unsubscribe. */
export const NOTIFICATIONS_DISABLED_REASONS = ['fbl', 'bounce', 'listunsubscribe'] as const;
export type NotificationsDisabledReason = (typeof NOTIFICATIONS_DISABLED_REASONS)[number];

/** The `user` object of spec §3. */
export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  language: z.string(),
  status: z.enum(['not_confirmed', 'confirmed', 'deleted']),
  credits: z.number().int(),
  /** Why mail to the member stopped (spec §3): fbl, bounce, listunsubscribe; nothing else. */
  notifications_disabled: z.array(z.enum(NOTIFICATIONS_DISABLED_REASONS)),
  /**
   * The member's read receipts: on, their reading tells the partner how far they read and they see the partner's;
   * off, neither (receipts show only when both have them on). POST read-receipts.php changes it.
   */
  read_receipts: z.boolean(),
  paid_user: z.boolean(),
  trafficsource: z.string().nullable(),
  signup_date: z.string(),
  fictional_icon: z.string(),
  /** The member's unread messages in all their chats (spec §3 chat state; chats.php's total): the Messages badge. */
  num_unread_messages: z.number().int(),
  /**
   * What the member search starts from (spec §3 search state) when the address has no filter: the gender the
   * member wants to meet when that is one gender, their country and region. Null where there is no default.
   */
  search_defaults: z.object({
    gender: z.string().nullable(),
    country: z.string(),
    countryregion: z.string().nullable(),
  }),
  profile: z.object({
    id: z.number().int(),
    name: z.string(),
    country: z.string(),
    status: z.string(),
    like_new: z.number().int(),
    main_image: mainImageSchema,
  }),
});
export type User = z.infer<typeof userSchema>;
export const userResponseSchema = z.object({ user: userSchema.nullable() });
export type UserResponse = z.infer<typeof userResponseSchema>;
export const deleteAccountResponseSchema = z.object({ ok: z.literal(true), reactivation_days: z.number().int() });
/** POST /api/delete-discount.php: the offer belongs to a deletion under way, confirmed with the password. */
export const deleteDiscountRequestSchema = z.object({ password: z.string().min(1, E.wrongPassword).max(128) });
export const discountOfferResponseSchema = z.object({ code: z.string(), value_percentage: z.number().int(), expires: z.string() });
