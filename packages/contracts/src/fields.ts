import { z } from 'zod';

/**
 * Building blocks for every request field, so that what passes validation can be stored: PostgreSQL's text and
 * jsonb cannot hold NUL (errors 22021 and 22P05), a lone UTF-16 surrogate has no UTF-8 form, and our ids are
 * bigint columns read as JavaScript numbers.
 */

/** Catalogue key (common.json) of a text with characters we do not take. */
export const INVALID_CHARACTERS = 'errors.invalidCharacters';

/** No control characters (Unicode's Cc: C0, DEL, C1) and no lone surrogates (Cs; a pair is one code point under /u). */
const ONE_LINE = /^[^\p{Cc}\p{Cs}]*$/u;
/** The same, but tab, line feed and carriage return are allowed. */
const MULTI_LINE = /^(?:[^\p{Cc}\p{Cs}]|[\t\n\r])*$/u;

/**
 * Unicode's explicit direction formatting: the embeddings and overrides U+202A–U+202E and the isolates
 * U+2066–U+2069. An override makes text display as something it is not (a name "Anna\u202Egpj.exe" reads
 * "Annaexe.jpg"), and an unclosed one runs on over the text beside it; no language needs them typed.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text without the direction controls of BIDI_CONTROLS (the letters' own direction still applies). */
function withoutBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, '');
}

/**
 * A one-line text (a name, a subject, a city, a query value), its direction controls removed first. Chain
 * trim/min/max after it: they measure what is kept.
 */
export const textSchema = (message: string = INVALID_CHARACTERS) => z.string().overwrite(withoutBidiControls).regex(ONE_LINE, message);

/** A text that may run over several lines (a message, an about text), its direction controls removed first. */
export const multilineTextSchema = (message: string = INVALID_CHARACTERS) =>
  z.string().overwrite(withoutBidiControls).regex(MULTI_LINE, message);

/**
 * A one-line secret (a password) taken exactly as typed: nothing is removed, since the same characters must
 * match again at login; control characters are refused all the same.
 */
export const secretTextSchema = (message: string = INVALID_CHARACTERS) => z.string().regex(ONE_LINE, message);

/** Whether a text from outside a schema (a cookie) may be stored as it is. */
export function isStorableText(value: string): boolean {
  return ONE_LINE.test(value);
}

/**
 * An id of ours: a positive bigint identity column, read as a JavaScript number, so 1 to 2^53 − 1 (well
 * inside bigint's range, and zod refuses unsafe integers anyway).
 */
export const idSchema = () => z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * A keyset cursor: the last id of the previous page, as a string of digits. Kept a string (it goes back into
 * the next page's URL as it came) but never past the largest id, so it always fits the bigint column.
 */
export const cursorSchema = () =>
  z
    .string()
    .regex(/^\d{1,16}$/)
    .refine((v) => Number(v) <= Number.MAX_SAFE_INTEGER, 'Cursor out of range');
