import { z } from 'zod';
import { idSchema, secretTextSchema, textSchema } from './fields';
import { LOCALES } from './locales';

/** Operator console (staff, not members): the roles, its sign-in in two steps, staff and the audit log. */

export const STAFF_ROLES = ['admin', 'moderator', 'support', 'operator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The console's own session cookie, sent only to the console's API (path /api/console). */
export const STAFF_SESSION_COOKIE = 'amora_staff';

/** Catalogue keys (console namespace) of the console's errors. */
export const CONSOLE_ERRORS = {
  loginFailed: 'console.errors.loginFailed',
  codeWrong: 'console.errors.codeWrong',
  tooManyAttempts: 'console.errors.tooManyAttempts',
  signInRequired: 'console.errors.signInRequired',
  forbidden: 'console.errors.forbidden',
  emailTaken: 'console.errors.emailTaken',
  lastAdmin: 'console.errors.lastAdmin',
} as const;

const staffEmail = textSchema().trim().toLowerCase().pipe(z.email(CONSOLE_ERRORS.loginFailed).max(254));

export const staffLoginSchema = z.strictObject({
  email: staffEmail,
  password: secretTextSchema(CONSOLE_ERRORS.loginFailed).min(1, CONSOLE_ERRORS.loginFailed).max(128, CONSOLE_ERRORS.loginFailed),
});

/** The second step: a code of the authenticator (six digits) or one of the recovery codes. */
export const staffSecondFactorSchema = z.union([
  z.strictObject({ code: z.string().regex(/^\d{6}$/, CONSOLE_ERRORS.codeWrong) }),
  z.strictObject({ recovery_code: z.string().regex(/^[a-z0-9]{5}-[a-z0-9]{5}$/, CONSOLE_ERRORS.codeWrong) }),
]);

export const staffSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
  language: z.string(),
  is_active: z.boolean(),
  last_login_at: z.string().nullable(),
});
export type Staff = z.infer<typeof staffSchema>;

/**
 * Where the sign-in stands: `second_factor` (the password was right: the authenticator's code next), `enroll` (the
 * first sign-in: set up the authenticator with this secret, then its code), `done` (signed in; `recovery_codes`
 * once, right after the authenticator was set up).
 */
export const staffLoginStepSchema = z.object({
  step: z.enum(['second_factor', 'enroll', 'done']),
  enroll: z.object({ secret: z.string(), otpauth_url: z.string() }).optional(),
  recovery_codes: z.array(z.string()).optional(),
  staff: staffSchema.optional(),
});
export type StaffLoginStep = z.infer<typeof staffLoginStepSchema>;

export const staffMeSchema = z.object({ staff: staffSchema.nullable() });

const staffSessionSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  ip: z.string(),
  user_agent: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
});
export const staffSessionsSchema = z.object({ sessions: z.array(staffSessionSchema) });
export const staffSessionParamsSchema = z.object({ id: z.string().regex(/^[a-f0-9]{16}$/) });

export const staffListSchema = z.object({ staff: z.array(staffSchema) });
export const staffIdParamsSchema = z.object({ id: z.coerce.number().pipe(idSchema()) });

export const createStaffSchema = z.strictObject({
  email: staffEmail,
  name: textSchema().trim().min(1).max(80),
  role: z.enum(STAFF_ROLES),
  language: z.enum(LOCALES).default('en'),
});
/** A new staff member: their password, shown once to the admin who made them, to be handed over in person. */
export const createdStaffSchema = z.object({ staff: staffSchema, password: z.string() });

export const updateStaffSchema = z
  .strictObject({
    name: textSchema().trim().min(1).max(80).optional(),
    role: z.enum(STAFF_ROLES).optional(),
    language: z.enum(LOCALES).optional(),
    is_active: z.boolean().optional(),
    /** Signs them out everywhere and makes them set up the authenticator again. */
    reset_second_factor: z.literal(true).optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'Nothing to change');

export const auditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  object_type: textSchema().max(40).optional(),
  object_id: textSchema().max(40).optional(),
  staff_id: z.coerce.number().pipe(idSchema()).optional(),
});
const auditEntrySchema = z.object({
  id: z.number(),
  staff: z.object({ id: z.number(), name: z.string(), email: z.string() }).nullable(),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), page: z.number(), pages: z.number(), total: z.number() });

/** GET /api/dev/console-code.php (development only): the demo staff's current authenticator code. */
export const devConsoleCodeSchema = z.object({ code: z.string(), valid_for_seconds: z.number(), staff: z.array(z.string()) });
