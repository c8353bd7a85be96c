import { writeFileSync } from 'node:fs';
import { profiles } from '@amora/db';
import { and, asc, eq, ne } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, profileOf, signup } from './accounts';
import { CLIENT, createTestApp, type TestApp } from './harness';

/**
 * Walks every operation of the OpenAPI document (and the development routes it hides) with malformed input:
 * broken JSON, wrong types, huge strings, NUL and other control characters, numbers outside every column's
 * range, extra fields, odd content types, plus seeded random values; as a logged-in member and as a visitor.
 * No answer may be a 5xx or carry internals (stack traces, SQL, file paths, library or error class names).
 * The generator is seeded, so a run sends the same requests every time. AMORA_FUZZ_REPORT=<file> writes the
 * failures, answers per status, times and slow requests there; AMORA_FUZZ_ONLY=<pattern> walks only the
 * operations whose "METHOD /path" matches.
 */

const SEED = 20_260_501;
/** Requests in flight at once. */
const CONCURRENCY = 4;
/** Random requests per operation and identity, on top of the fixed cases. */
const RANDOM_CASES = 8;

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
}

interface Param {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: JsonSchema;
}

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI form: /api/assets/paymentmethod/{name}.svg */
  path: string;
  params: Param[];
  /** The JSON body schema, when the operation takes one. */
  body: JsonSchema | null;
  /** A state-changing call without a JSON body schema (multipart or none): it still gets junk bodies. */
  takesBody: boolean;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
}

/** Routes the document hides (development only) that read input all the same. */
const HIDDEN_OPERATIONS: Operation[] = [
  {
    method: 'GET',
    path: '/dev/mailbox',
    params: [{ name: 'to', in: 'query', required: false, schema: { type: 'string', maxLength: 320 } }],
    body: null,
    takesBody: false,
  },
  {
    method: 'GET',
    path: '/dev/mailbox/{id}',
    params: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    body: null,
    takesBody: false,
  },
  {
    method: 'GET',
    path: '/api/dev/mailbox.php',
    params: [{ name: 'to', in: 'query', required: false, schema: { type: 'string', maxLength: 320 } }],
    body: null,
    takesBody: false,
  },
];

function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const upper = method.toUpperCase() as Operation['method'];
      const params = (op.parameters ?? [])
        .filter((p) => p.in === 'query' || p.in === 'path')
        .map((p) => ({ name: p.name, in: p.in as Param['in'], required: Boolean(p.required), schema: p.schema }));
      const body = op.requestBody?.content?.['application/json']?.schema ?? null;
      operations.push({ method: upper, path, params, body, takesBody: upper !== 'GET' });
    }
  }
  return operations;
}

/** A JSON number written as-is (2^63, 1e309, -0), which JSON.stringify cannot produce. */
class RawNumber {
  constructor(readonly text: string) {}
}

function toJson(value: unknown): string {
  if (value instanceof RawNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

let emailCounter = 0;
/** Values the schema cannot say are valid (refinements, look-ups); keyed by field name. */
const hints: Record<string, () => unknown> = {
  email: () => `fuzz-${++emailCounter}@example.com`,
  new_email: () => `fuzz-new-${++emailCounter}@example.com`,
  date_of_birth: () => '1990-05-17',
  password: () => 'fuzz-password-1',
  password_confirm: () => 'fuzz-password-1',
  token: () => 'fuzz-token-that-matches-nothing-0123456789',
  lat: () => '52.37',
  lon: () => '4.89',
  country: () => 'NL',
  countryregion: () => 'NL-NH',
  region: () => 'NL-NH',
  to: () => 'fuzz@example.com',
  message: () => 'A complaint with enough words to be accepted.',
  url: () => 'https://localhost/members',
  path: () => '/landers/video',
  lb: () => '1',
};

/** A valid value for a schema (as far as the schema tells), for the fields a case does not break. */
function validValue(schema: JsonSchema, name: string, inQuery: boolean): unknown {
  const hinted = hints[name];
  if (hinted) return hinted();
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const option = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (option) return validValue(option, name, inQuery);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 1;
      const value = schema.exclusiveMinimum === true ? min + 1 : min;
      return inQuery ? String(value) : value;
    }
    case 'boolean':
      return inQuery ? 'true' : true;
    case 'array':
      return schema.items ? [validValue(schema.items, name, inQuery)] : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = validValue(schema.properties?.[key] ?? {}, key, false);
      return out;
    }
    default:
      if (schema.format === 'email') return hints.email();
      return 'f'.repeat(Math.max(schema.minLength ?? 0, Math.min(8, schema.maxLength ?? 8)));
  }
}

/**
 * Values that break a JSON field: control characters, sizes, numbers past every column type, wrong types.
 * `deep` values can pass a type check (a string, a number), so they are also tried with every other field
 * valid and present, where they get furthest.
 */
const BAD_BODY_VALUES: [label: string, value: unknown, deep: boolean][] = [
  ['NUL in text', 'nul\u0000byte', true],
  ['only NUL', '\u0000', true],
  ['control characters', 'ctl\u0001\u001b\u007f', true],
  ['lone surrogate', 'half \ud800 pair', true],
  ['200k string', 'x'.repeat(200_000), false],
  ['2^63', new RawNumber('9223372036854775808'), true],
  ['-2^63-1', new RawNumber('-9223372036854775809'), true],
  ['2^31', 2 ** 31, true],
  ['2^53+2', new RawNumber('9007199254740994'), true],
  ['1e309', new RawNumber('1e309'), false],
  ['-1e309', new RawNumber('-1e309'), false],
  ['400 digits', new RawNumber(`1${'0'.repeat(400)}`), false],
  ['-1', -1, true],
  ['0', 0, false],
  ['-0', new RawNumber('-0'), false],
  ['1.5', 1.5, false],
  ['"NaN"', 'NaN', false],
  ['"Infinity"', 'Infinity', false],
  ['"-1"', '-1', false],
  ['"2^63"', '9223372036854775808', true],
  ['empty string', '', false],
  ['null', null, false],
  ['true', true, false],
  ['empty array', [], false],
  ['empty object', {}, false],
  ['array of NUL', ['\u0000'], false],
  ['object with NUL key', { '\u0000': 1 }, false],
];

const DEEP_VALUES = BAD_BODY_VALUES.filter(([, , deep]) => deep);
const SHALLOW_VALUES = BAD_BODY_VALUES.filter(([, , deep]) => !deep);
const SHALLOW_PER_FIELD = 4;

function markFieldCases(cases: Case[], from: number): void {
  for (let i = from; i < cases.length; i++) cases[i].field = true;
}

/** Values that break a query or path parameter, already percent-encoded. */
const BAD_QUERY_VALUES: [string, string][] = [
  ['NUL', '%00'],
  ['NUL in text', 'a%00b'],
  ['control characters', '%01%1B%7F'],
  ['8k string', 'x'.repeat(8_000)],
  ['2^63', '9223372036854775808'],
  ['2^63-1', '9223372036854775807'],
  ['-2^63-1', '-9223372036854775809'],
  ['2^31', '2147483648'],
  ['1e309', '1e309'],
  ['-1', '-1'],
  ['0', '0'],
  ['1.5', '1.5'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['hex', '0x10'],
  ['empty', ''],
  ['bad percent-encoding', '%ZZ'],
  ['invalid UTF-8', '%C3%28'],
  ['encoded surrogate', '%ED%A0%80'],
  ['__proto__', '__proto__'],
];

/** Whole-body cases: not JSON, not an object, pollution attempts, nesting, size. */
const BAD_BODIES: [string, string, string | undefined][] = [
  ['cut-off JSON', '{"a":', 'application/json'],
  ['lone brace', '{', 'application/json'],
  ['not JSON', 'nul', 'application/json'],
  ['empty JSON body', '', 'application/json'],
  ['JSON string', '"x"', 'application/json'],
  ['JSON array', '[]', 'application/json'],
  ['JSON null', 'null', 'application/json'],
  ['JSON number 1e309', '1e309', 'application/json'],
  ['NUL in JSON text', '{"a":"\u0000"}', 'application/json'],
  ['escaped NUL key', '{"\\u0000":"\\u0000"}', 'application/json'],
  ['__proto__', '{"__proto__":{"polluted":1}}', 'application/json'],
  ['constructor.prototype', '{"constructor":{"prototype":{"polluted":1}}}', 'application/json'],
  ['nested 5000 deep', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'],
  ['latin-1 charset', '{"a":"\u00e9"}', 'application/json; charset=latin1'],
  ['text/plain', '{"a":1}', 'text/plain'],
  ['form-encoded', 'a=1&b=%00', 'application/x-www-form-urlencoded'],
  ['multipart without boundary', '--x\r\n', 'multipart/form-data'],
  [
    'multipart cut short',
    '--fuzz\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n\u0000\u0001',
    'multipart/form-data; boundary=fuzz',
  ],
  ['xml', '<a/>', 'application/xml'],
  ['no content type', '{"a":1}', undefined],
  ['1.1 MB', `{"a":"${'x'.repeat(1_100_000)}"}`, 'application/json'],
];

/** Cookies the server reads (session, traffic source, language, forced host), broken; sent with a valid request. */
const BAD_COOKIES: [string, string][] = [
  ['session NUL', 'auth.session=%00'],
  ['session 4k', `auth.session=${'x'.repeat(4_000)}`],
  ['tracking with NUL', `tracking=${encodeURIComponent(JSON.stringify({ network: 'a\u0000b', ref: '\u0000' }))}`],
  ['tracking with lone surrogate', `tracking=${encodeURIComponent('{"network":"\\ud800","sub1":"x"}')}`],
  ['tracking with NUL key', `tracking=${encodeURIComponent('{"\\u0000":"x","network":"n"}')}`],
  ['tracking cut inside a pair', `tracking=${encodeURIComponent(JSON.stringify({ network: `${'n'.repeat(99)}😀` }))}`],
  ['tracking not JSON', 'tracking=%7B%22network'],
  ['tracking JSON array', `tracking=${encodeURIComponent('["a",1]')}`],
  ['tracking huge', `tracking=${encodeURIComponent(JSON.stringify({ network: 'n'.repeat(3_000) }))}`],
  ['language NUL', 'i18n_redirected=%00'],
  ['forced host NUL', 'forced_host=a%00b'],
  ['bad percent-encoding', 'tracking=%ZZ; i18n_redirected=%E0%A4%A'],
  ['malformed header', '=;;==%; ;a'],
];

interface Case {
  label: string;
  /** A case that breaks one field; the others break the request as a whole (body, cookies, random). */
  field?: true;
  method: Operation['method'];
  url: string;
  payload?: string;
  contentType?: string;
  cookie?: string;
}

type Query = [string, string][];

function urlOf(op: Operation, pathValues: Record<string, string>, query: Query): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => pathValues[name] ?? 'x');
  const search = query.map(([k, v]) => `${k}=${v}`).join('&');
  return search ? `${path}?${search}` : path;
}

function jsonCase(op: Operation, label: string, url: string, body: unknown): Case {
  return { label, method: op.method, url, payload: toJson(body), contentType: 'application/json' };
}

/**
 * Any UTF-16 code unit (lone surrogates and controls included) or any astral code point, ASCII more often.
 * (fast-check's own `unit: 'binary'` builds a table of every code point first, which takes seconds.)
 */
const anyChar = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);
const anyString = fc.string({ unit: anyChar, maxLength: 40 });
const anyValue = fc.oneof(
  anyString,
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => new RawNumber(n.toString())),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>(null, true, false, '\u0000', ''),
);

/** encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the bytes it would have in UTF-8. */
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    if (c < 0xd800 || c > 0xdfff) out += encodeURIComponent(char);
    else out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
  }
  return out;
}

/** Every case of one operation, in a fixed order for one seed. */
function casesOf(op: Operation, seed: number): Case[] {
  const name = `${op.method} ${op.path}`;
  const cases: Case[] = [];
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const validPath = (): Record<string, string> =>
    Object.fromEntries(pathParams.map((p) => [p.name, encodeURIComponent(String(validValue(p.schema, p.name, true)))]));
  const validQuery = (all: boolean): Query =>
    queryParams
      .filter((p) => all || p.required)
      .map((p) => [p.name, encodeURIComponent(String(validValue(p.schema, p.name, true)))] as [string, string]);
  const validBody = (): Record<string, unknown> | undefined =>
    op.body ? (validValue(op.body, '', false) as Record<string, unknown>) : undefined;
  /** The required fields and every optional one, all valid: some fields are only read when others are there. */
  const fullBody = (): Record<string, unknown> =>
    Object.fromEntries(Object.entries(op.body?.properties ?? {}).map(([k, schema]) => [k, validValue(schema, k, false)]));
  const hasOptional = Object.keys(op.body?.properties ?? {}).length > (op.body?.required ?? []).length;
  const plain = (label: string, url: string): Case => {
    const body = validBody();
    return body === undefined ? { label, method: op.method, url } : jsonCase(op, label, url, body);
  };

  cases.push(plain(`${name}: valid required input`, urlOf(op, validPath(), validQuery(false))));
  if (queryParams.length) cases.push(plain(`${name}: every query parameter`, urlOf(op, validPath(), validQuery(true))));

  // One parameter broken at a time, the others valid.
  const fieldCasesFrom = cases.length;
  for (const param of op.params) {
    for (const [badLabel, bad] of BAD_QUERY_VALUES) {
      const label = `${name}: ${param.in} ${param.name} = ${badLabel}`;
      if (param.in === 'path') {
        cases.push(plain(label, urlOf(op, { ...validPath(), [param.name]: bad }, validQuery(false))));
      } else {
        const query = validQuery(false).filter(([k]) => k !== param.name);
        cases.push(plain(label, urlOf(op, validPath(), [...query, [param.name, bad]])));
      }
    }
    {
      const value = encodeURIComponent(String(validValue(param.schema, param.name, true)));
      const label = `${name}: ${param.in} ${param.name} = valid + NUL`;
      if (param.in === 'path') cases.push(plain(label, urlOf(op, { ...validPath(), [param.name]: `${value}%00` }, validQuery(false))));
      else
        cases.push(
          plain(label, urlOf(op, validPath(), [...validQuery(false).filter(([k]) => k !== param.name), [param.name, `${value}%00`]])),
        );
    }
    if (param.in === 'query') {
      const value = encodeURIComponent(String(validValue(param.schema, param.name, true)));
      cases.push(
        plain(
          `${name}: query ${param.name} twice`,
          urlOf(op, validPath(), [...validQuery(false), [param.name, value], [param.name, value]]),
        ),
      );
      cases.push(plain(`${name}: query ${param.name}[]`, urlOf(op, validPath(), [...validQuery(false), [`${param.name}[]`, value]])));
    }
  }
  markFieldCases(cases, fieldCasesFrom);
  if (op.method === 'GET' || queryParams.length) {
    cases.push(plain(`${name}: extra query parameter`, urlOf(op, validPath(), [...validQuery(false), ['fuzz_extra', '1']])));
    cases.push(plain(`${name}: query __proto__[x]`, urlOf(op, validPath(), [...validQuery(false), ['__proto__%5Bx%5D', '1']])));
    cases.push(plain(`${name}: NUL in a query key`, urlOf(op, validPath(), [...validQuery(false), ['a%00b', '1']])));
  }

  const url = urlOf(op, validPath(), validQuery(false));
  if (op.body) {
    const properties = Object.entries(op.body.properties ?? {});
    const bodyCasesFrom = cases.length;
    for (const [index, [field, schema]] of properties.entries()) {
      for (const [badLabel, bad] of DEEP_VALUES) {
        cases.push(jsonCase(op, `${name}: body ${field} = ${badLabel}`, url, { ...validBody(), [field]: bad }));
        if (hasOptional) cases.push(jsonCase(op, `${name}: full body, ${field} = ${badLabel}`, url, { ...fullBody(), [field]: bad }));
      }
      // Wrong types and sizes fail on the field's type whatever else the body holds: a seeded few per field.
      const [shallow] = fc.sample(fc.shuffledSubarray(SHALLOW_VALUES, { minLength: SHALLOW_PER_FIELD, maxLength: SHALLOW_PER_FIELD }), {
        seed: seed + index,
        numRuns: 1,
      });
      for (const [badLabel, bad] of shallow) {
        cases.push(jsonCase(op, `${name}: body ${field} = ${badLabel}`, url, { ...validBody(), [field]: bad }));
      }
      // A valid value with a NUL after it passes any check that looks only at its start.
      const valid = validValue(schema, field, false);
      if (typeof valid === 'string') {
        cases.push(jsonCase(op, `${name}: body ${field} = valid + NUL`, url, { ...validBody(), [field]: `${valid}\u0000` }));
        cases.push(jsonCase(op, `${name}: full body, ${field} = valid + NUL`, url, { ...fullBody(), [field]: `${valid}\u0000` }));
      }
      if (schema.type === 'array') {
        for (const [badLabel, bad] of DEEP_VALUES) {
          cases.push(jsonCase(op, `${name}: body ${field} = [${badLabel}]`, url, { ...validBody(), [field]: [bad] }));
        }
      }
      // Every optional field once with a valid value, so each one reaches the service.
      if (!(op.body.required ?? []).includes(field)) {
        cases.push(jsonCase(op, `${name}: body with ${field}`, url, { ...validBody(), [field]: validValue(schema, field, false) }));
      }
    }
    markFieldCases(cases, bodyCasesFrom);
    cases.push(jsonCase(op, `${name}: extra body field`, url, { ...validBody(), fuzz_extra: 1 }));
    cases.push(jsonCase(op, `${name}: extra body field with NUL`, url, { ...validBody(), 'fuzz\u0000extra': '\u0000' }));
  }
  for (const [badLabel, cookie] of BAD_COOKIES) {
    const full = op.body ? fullBody() : undefined;
    const base =
      full === undefined ? { label: '', method: op.method, url: urlOf(op, validPath(), validQuery(true)) } : jsonCase(op, '', url, full);
    cases.push({ ...base, label: `${name}: cookie ${badLabel}`, cookie });
  }
  if (op.body || op.takesBody) {
    for (const [badLabel, payload, contentType] of BAD_BODIES) {
      cases.push({ label: `${name}: ${badLabel}`, method: op.method, url, payload, contentType });
    }
  }

  // Seeded random values: any JSON for each field, strings over the whole code-point range, extra keys.
  const fieldNames = Object.keys(op.body?.properties ?? {});
  const randomBody = fc.record({
    replace: fc.subarray(fieldNames),
    values: fc.array(anyValue, { minLength: fieldNames.length, maxLength: fieldNames.length }),
    extra: fc.dictionary(anyString, anyValue, { maxKeys: 2 }),
  });
  const randomQuery = fc.array(fc.tuple(fc.constantFrom(...queryParams.map((p) => p.name), 'fuzz'), anyString.map(percentEncode)), {
    maxLength: 4,
  });
  const bodies = op.body ? fc.sample(randomBody, { seed, numRuns: RANDOM_CASES }) : [];
  const queries = queryParams.length ? fc.sample(randomQuery, { seed: seed + 1, numRuns: RANDOM_CASES }) : [];
  for (let i = 0; i < RANDOM_CASES; i++) {
    const query = queries[i] ?? [];
    const caseUrl = urlOf(op, validPath(), [...validQuery(false).filter(([k]) => !query.some(([q]) => q === k)), ...query]);
    const sampled = bodies[i];
    if (sampled) {
      const body: Record<string, unknown> = { ...validBody() };
      sampled.replace.forEach((field, j) => {
        body[field] = sampled.values[j];
      });
      Object.assign(body, sampled.extra);
      cases.push(jsonCase(op, `${name}: random #${i} ${toJson(body).slice(0, 120)}`, caseUrl, body));
    } else if (query.length) {
      cases.push(plain(`${name}: random #${i}`, caseUrl));
    }
  }
  return cases;
}

/** What an answer must never show: stack frames, file paths, SQL, the database or ORM, error class names. */
const LEAKS: [string, RegExp][] = [
  ['stack frame', /\bat (?:async )?[\w$.<>[\] ]+ \(|\bat (?:file:|\/|node:)/],
  ['file path', /(?:\/(?:work|home|usr|tmp|app|srv|opt|root)\/|node_modules|\b[\w-]+\.(?:ts|js|mjs|cjs):\d+)/],
  ['SQL', /\b(?:select\s.+\sfrom|insert into|update\s+"?\w+"?\s+set|delete from|syntax error|violates|relation "|column ")/i],
  ['database or ORM', /drizzle|postgres|pglite|\bpg_|sqlstate/i],
  ['error class', /\b[A-Z]\w*(?:Error|Exception)\b/],
  ['framework error code', /\bFST_[A-Z_]+|\bERR_[A-Z_]+/],
];

interface Failure {
  label: string;
  identity: string;
  status: number;
  reason: string;
  body: string;
}

function check(res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  const type = String(res.headers['content-type'] ?? '');
  if (type && !/json|text|html/.test(type)) return null;
  for (const [what, pattern] of LEAKS) {
    if (pattern.test(res.body)) return `leaks ${what}`;
  }
  return null;
}

/** Runs `work` on every item, at most `limit` at once. */
async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function hashSeed(text: string): number {
  let h = SEED;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

describe('every OpenAPI operation under malformed input', () => {
  let t: TestApp;
  let member: string;

  beforeAll(async () => {
    t = await createTestApp();
    const account = await signup(t, {}, { ip: '10.200.0.1' });
    member = account.cookie;
    // Another member of the site: signup messages, likes and blocks reach their checks with a real profile.
    const own = await profileOf(t, account.user.id);
    const [other] = await t.ctx.db
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.siteId, own.siteId), ne(profiles.id, own.id)))
      .orderBy(asc(profiles.id))
      .limit(1);
    hints.profile_id = () => other.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  function send(c: Case, identity: 'member' | 'visitor', remoteAddress: string): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { host: AMORA, ...CLIENT };
    const cookies = [identity === 'member' ? member : '', c.cookie ?? ''].filter(Boolean);
    if (cookies.length) headers.cookie = cookies.join('; ');
    if (c.contentType) headers['content-type'] = c.contentType;
    return t.app.inject({
      method: c.method,
      url: c.url,
      headers,
      remoteAddress,
      ...(c.payload === undefined ? {} : { payload: c.payload }),
    }) as Promise<LightMyRequestResponse>;
  }

  it('answers no 5xx and leaks nothing, as a member and as a visitor', { timeout: 300_000 }, async () => {
    const doc = t.app.swagger() as unknown as OpenApiDocument;
    const all = [...operationsOf(doc), ...HIDDEN_OPERATIONS];
    expect(all.length).toBeGreaterThan(40);
    for (const op of HIDDEN_OPERATIONS) {
      expect(t.app.hasRoute({ method: op.method, url: op.path.replace(/\{(\w+)\}/g, ':$1') }), op.path).toBe(true);
    }
    const only = process.env.AMORA_FUZZ_ONLY ? new RegExp(process.env.AMORA_FUZZ_ONLY) : null;
    const operations = only ? all.filter((op) => only.test(`${op.method} ${op.path}`)) : all;
    // Logging out ends the member's session: those calls go last.
    operations.sort((a, b) => Number(a.path.includes('logout')) - Number(b.path.includes('logout')));

    const failures: Failure[] = [];
    const timings: Record<string, number> = {};
    const statuses: Record<string, number> = {};
    const slow: string[] = [];
    let sent = 0;
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    for (const op of operations) {
      const seed = hashSeed(`${op.method} ${op.path}`);
      const opStarted = performance.now();
      // A call that needs a member refuses a visitor after validation, which is the same for both: there a
      // visitor gets the whole-request cases only (bodies, cookies, random input). Broken cookies are sent by
      // the visitor alone: how they are read does not depend on the session, which is the member's cookie.
      const [probe] = casesOf(op, seed);
      const probed = await send(probe, 'visitor', '10.255.255.254');
      const membersOnly = probed.statusCode === 403 && probed.json().authentication_required === true;
      for (const identity of ['member', 'visitor'] as const) {
        // Made again for each identity: each signup case needs an address of its own.
        const cases = casesOf(op, seed);
        const chosen = cases.filter((x) => (identity === 'member' ? !x.cookie : !(membersOnly && x.field)));
        // A few requests at a time: password hashing runs on other threads while the database answers.
        await inPool(chosen, CONCURRENCY, async (c) => {
          const n = ++sent;
          const requestStarted = performance.now();
          // Each request from its own address: no flood guard or per-address limit stops the walk early.
          const res = await send(c, identity, `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
          const took = performance.now() - requestStarted;
          if (took > 200) slow.push(`${Math.round(took)} ms ${identity} ${c.label.slice(0, 100)} → ${res.statusCode}`);
          statuses[`${op.method} ${op.path} ${res.statusCode}`] = (statuses[`${op.method} ${op.path} ${res.statusCode}`] ?? 0) + 1;
          const reason = check(res);
          if (reason) failures.push({ label: c.label, identity, status: res.statusCode, reason, body: res.body.slice(0, 300) });
        });
      }
      timings[`${op.method} ${op.path}`] = Math.round(performance.now() - opStarted);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const cpu = process.cpuUsage(cpuStarted);
    const cpuSeconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
    if (process.env.AMORA_FUZZ_REPORT) {
      writeFileSync(
        process.env.AMORA_FUZZ_REPORT,
        JSON.stringify({ sent, seconds, cpuSeconds, timings, statuses, slow, failures }, null, 1),
      );
    }
    failures.sort((a, b) => `${a.identity} ${a.label}`.localeCompare(`${b.identity} ${b.label}`));
    const summary = failures.map((f) => `${f.identity} ${f.label} → ${f.status} ${f.reason}: ${f.body}`);
    expect(summary, `${failures.length} of ${sent} requests failed (${seconds} s)`).toEqual([]);
    if (!only) expect(sent).toBeGreaterThan(3_000);
  });
});
