import { settingsSchema, userResponseSchema } from '@amora/contracts';
import { describe, expect, it } from 'vitest';
import { contractBody, contractJson } from './contract';
import { settingsFixture, userFixture } from './fixtures';

describe('test answers go through their contract', () => {
  it('passes an answer the contract accepts as it is', () => {
    const body = { user: userFixture() };
    expect(contractBody(userResponseSchema, body)).toEqual(body);
  });

  it('refuses an answer with a value of the wrong type', () => {
    const settings = { ...settingsFixture(), company_id: '1' } as never;
    expect(() => contractBody(settingsSchema, settings)).toThrow(/breaks its contract[\s\S]*company_id/);
  });

  it('refuses an answer with a field the contract does not send, also deep inside', () => {
    const user = userFixture();
    expect(() => contractBody(userResponseSchema, { user: { ...user, password_hash: 'x' } } as never)).toThrow(
      'Test answer has fields its contract does not send: .user.password_hash',
    );
    expect(() => contractBody(userResponseSchema, { user: { ...user, profile: { ...user.profile, email: 'x' } } } as never)).toThrow(
      '.user.profile.email',
    );
  });

  it('answers JSON with the status asked for', async () => {
    const response = contractJson(userResponseSchema, { user: null }, { status: 200 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: null });
  });
});
