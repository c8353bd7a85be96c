import { settingsQuerySchema } from '@amora/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validatorWithEmptyShortcut } from './validation';

type Result = { value?: unknown; error?: unknown };
const compile = (schema: z.ZodType) =>
  validatorWithEmptyShortcut({ schema, method: 'GET', url: '/t', httpPart: 'querystring' } as never) as (data: unknown) => Result;

describe('validator with the empty-input shortcut', () => {
  it('passes an empty query through unparsed when the schema would answer the same empty object', () => {
    const validate = compile(settingsQuerySchema);
    const empty = Object.create(null);
    const result = validate(empty);
    expect(result.error).toBeUndefined();
    expect(result.value).toBe(empty);
    expect(validate({}).value).toEqual({});
  });

  it('still validates every query that has keys', () => {
    const validate = compile(settingsQuerySchema);
    expect(validate({ lang: 'de' })).toEqual({ value: { lang: 'de' } });
    expect(validate({ lang: 'xx' }).error).toBeDefined();
    expect(validate({ forced_host: 'x'.repeat(300) }).error).toBeDefined();
  });

  it('parses an empty input when the schema rejects it, fills in defaults or transforms it', () => {
    expect(compile(z.object({ id: z.string() }))({}).error).toBeDefined();
    expect(compile(z.object({ page: z.number().default(1) }))({})).toEqual({ value: { page: 1 } });
    expect(compile(z.object({}).transform(() => ({ made: true })))({})).toEqual({ value: { made: true } });
    expect(compile(z.object({}).transform(() => new Map()))({}).value).toBeInstanceOf(Map);
  });

  it('never takes an empty array, null or a missing input for an empty object', () => {
    const validate = compile(z.object({ a: z.string().optional() }));
    expect(validate([]).error).toBeDefined();
    expect(validate(null).error).toBeDefined();
    expect(validate(undefined).error).toBeDefined();
  });
});
