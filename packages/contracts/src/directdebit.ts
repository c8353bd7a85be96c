import { z } from 'zod';
import { idSchema, textSchema } from './fields';

/**
 * Direct debit (spec §2 /directdebit, §3 the direct-debit form, §5 'Invalid code', §8 the blocked and limit
 * messages): a member gives an account (IBAN) and a phone; a code sent by SMS confirms it; the mandate is made
 * with the payment provider and later direct-debit payments are collected with it, without a checkout.
 */

/**
 * Direct-debit payments of one member that are not settled yet (created, open or pending): while this many are
 * open, no other direct-debit payment starts. A SEPA debit can be reversed for weeks, so credits bought on an
 * unsettled debit are credit given on trust; two keeps that small and lets a member buy again once one settles.
 */
export const DIRECT_DEBIT_OPEN_LIMIT = 2;
/** Digits of the SMS code. */
export const DIRECT_DEBIT_CODE_LENGTH = 6;
/** How long a code can be used. */
export const DIRECT_DEBIT_CODE_TTL_SECONDS = 600;
/** Wrong codes a verification takes; after that a new code must be asked for. */
export const DIRECT_DEBIT_CODE_MAX_ATTEMPTS = 5;
/** The least time between two codes sent for one member. */
export const DIRECT_DEBIT_RESEND_SECONDS = 60;
/** Codes one member may be sent per hour (and one phone number may receive, whoever asks). */
export const DIRECT_DEBIT_CODES_PER_HOUR = 5;

/** The `error` of a wrong, expired, used or exhausted code. */
export const INVALID_CODE = 'invalid_code';

/** Catalogue keys (payments.json, section directDebit.errors) of the form's field errors. */
const required = 'directDebit.errors.required';
const tooLong = 'directDebit.errors.tooLong';

const field = (max: number) => textSchema().trim().min(1, required).max(max, tooLong);

/**
 * Step 1 of POST /api/directdebit.php: the form. The IBAN is checked with ibantools and the phone parsed in the
 * member's country by the server (errors on the fields `iban` and `phone`); the answer is a verification whose
 * code goes by SMS.
 */
export const directDebitDetailsSchema = z
  .object({
    step: z.literal('details'),
    /** SEPA allows 70 characters for a name. */
    account_holder: field(70),
    /** With or without spaces, any case. */
    iban: textSchema().trim().min(1, required).max(42, 'directDebit.errors.iban'),
    street: field(100),
    house_number: field(20),
    zip: field(16),
    city: field(60),
    /** National or international; parsed in the member's country. */
    phone: textSchema().trim().min(1, required).max(32, 'directDebit.errors.phone'),
  })
  .strict();

/** Step 2: the code from the SMS. */
const directDebitOtpSchema = z
  .object({
    step: z.literal('otp'),
    verification: idSchema(),
    otp: z
      .string()
      .trim()
      .regex(new RegExp(`^\\d{${DIRECT_DEBIT_CODE_LENGTH}}$`), 'directDebit.errors.invalidCode'),
  })
  .strict();

/** A new code for the same verification (at most one per DIRECT_DEBIT_RESEND_SECONDS). */
const directDebitResendSchema = z.object({ step: z.literal('resend'), verification: idSchema() }).strict();

export const directDebitRequestSchema = z.discriminatedUnion('step', [
  directDebitDetailsSchema,
  directDebitOtpSchema,
  directDebitResendSchema,
]);
export type DirectDebitRequest = z.input<typeof directDebitRequestSchema>;
export type DirectDebitDetailsInput = z.input<typeof directDebitDetailsSchema>;

/** The answer of steps 1 and resend: where the code went. */
export const directDebitVerificationSchema = z.object({
  verification: z.number().int(),
  /** The number the code went to, all but its last digits hidden: +31 6•••••78. */
  phone_masked: z.string(),
  expires_at: z.string(),
  /** When a new code may be asked for. */
  resend_after_seconds: z.number().int(),
});
export type DirectDebitVerification = z.infer<typeof directDebitVerificationSchema>;

/** A member's mandate as shown back: the account by its last four characters only. */
const directDebitMandateSchema = z.object({
  account_holder: z.string(),
  iban_last4: z.string(),
  created_at: z.string(),
});
export type DirectDebitMandate = z.infer<typeof directDebitMandateSchema>;

/** GET /api/directdebit.php: can I pay by direct debit, and with which account. */
export const directDebitStatusSchema = z.object({
  mandate: directDebitMandateSchema.nullable(),
  blocked: z.boolean(),
  /** Direct-debit payments not settled yet. */
  open: z.number().int(),
  limit: z.number().int(),
  /** The member's country, in which a national phone number is read (ISO 3166-1 alpha-2), or null. */
  phone_country: z.string().nullable(),
});
export type DirectDebitStatus = z.infer<typeof directDebitStatusSchema>;

/** The answer of step 2: the mandate is made. */
const directDebitConfirmedSchema = z.object({ ok: z.literal(true), mandate: directDebitMandateSchema });
export type DirectDebitConfirmed = z.infer<typeof directDebitConfirmedSchema>;

export const directDebitPostResponseSchema = z.union([directDebitVerificationSchema, directDebitConfirmedSchema]);

/** The last four characters of an IBAN, as stored and shown. */
export function ibanLast4(iban: string): string {
  return iban.replace(/\s+/g, '').slice(-4).toUpperCase();
}
