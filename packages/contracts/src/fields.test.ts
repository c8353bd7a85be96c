import { describe, expect, it } from 'vitest';
import { cursorSchema, INVALID_CHARACTERS, idSchema, isStorableText, multilineTextSchema, secretTextSchema, textSchema } from './fields';

const refusal = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown) =>
  schema.safeParse(value).error?.issues[0]?.message;

describe('text fields', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['escape', 'red \u001b[31m'],
    ['DEL', 'a\u007f'],
    ['C1 control', 'a\u0085b'],
    ['lone high surrogate', 'a\ud800'],
    ['lone low surrogate', '\udc00a'],
  ])('refuse %s with the catalogue key, on one line and on several', (_name, value) => {
    expect(refusal(textSchema(), value)).toBe(INVALID_CHARACTERS);
    expect(refusal(multilineTextSchema(), value)).toBe(INVALID_CHARACTERS);
    expect(isStorableText(value)).toBe(false);
  });

  it('take any other text: accents, other scripts, emoji (surrogate pairs)', () => {
    for (const value of ['Zoë Ærø', 'Łódź', '東京', 'مرحبا', '😀 ❤️ 👩‍❤️‍👩', '']) {
      expect(textSchema().safeParse(value).success, value).toBe(true);
      expect(isStorableText(value)).toBe(true);
    }
  });

  it('allow tab, line feed and carriage return only in multi-line text', () => {
    for (const value of ['one\ntwo', 'one\r\ntwo', 'a\tb']) {
      expect(multilineTextSchema().safeParse(value).success, JSON.stringify(value)).toBe(true);
      expect(refusal(textSchema(), value), JSON.stringify(value)).toBe(INVALID_CHARACTERS);
    }
  });

  it('remove the direction overrides, embeddings and isolates (U+202A–U+202E, U+2066–U+2069) from every text', () => {
    const controls = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const control of controls) {
      expect(textSchema().parse(`Anna${control}gpj.exe`), control).toBe('Annagpj.exe');
      expect(multilineTextSchema().parse(`Hi${control}\nthere`), control).toBe('Hi\nthere');
    }
    // Length rules chained after measure what is kept; a text of controls alone is empty.
    expect(textSchema().trim().max(3).parse('ab\u202e\u202e')).toBe('ab');
    expect(textSchema().trim().min(1).safeParse('\u202e \u2066').success).toBe(false);
    // The letters' own direction and the marks a language uses stay: Arabic, Hebrew, LRM/RLM, ZWJ in emoji.
    for (const kept of ['مرحبا', 'שלום', 'a\u200eb\u200f', '👩‍❤️‍👩']) expect(textSchema().parse(kept)).toBe(kept);
  });

  it('keep a password exactly as typed (the same characters must match at login)', () => {
    expect(secretTextSchema().parse('pass\u202eword')).toBe('pass\u202eword');
    expect(refusal(secretTextSchema(), 'pass\u0001word')).toBe(INVALID_CHARACTERS);
  });

  it('report the characters first, before length rules chained after', () => {
    expect(refusal(textSchema().trim().min(2, 'too short'), '\u0000')).toBe(INVALID_CHARACTERS);
  });
});

describe('ids and cursors', () => {
  it('ids are positive safe integers (a bigint column read as a number)', () => {
    expect(idSchema().safeParse(1).success).toBe(true);
    expect(idSchema().safeParse(Number.MAX_SAFE_INTEGER).success).toBe(true);
    for (const bad of [0, -1, 1.5, 2 ** 53, 2 ** 63, Number.POSITIVE_INFINITY, Number.NaN, '1']) {
      expect(idSchema().safeParse(bad).success, String(bad)).toBe(false);
    }
  });

  it('cursors are digit strings no larger than the largest id', () => {
    for (const ok of ['0', '1', '24', String(Number.MAX_SAFE_INTEGER)]) expect(cursorSchema().safeParse(ok).success, ok).toBe(true);
    for (const bad of ['9007199254740992', '9223372036854775807', '9223372036854775808', '1e3', '-1', '', ' 1', 'abc']) {
      expect(cursorSchema().safeParse(bad).success, bad).toBe(false);
    }
  });
});
