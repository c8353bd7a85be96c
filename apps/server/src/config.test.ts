import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('REDIS_PREFIX', () => {
  it('is amora: by default, and what is set otherwise, so installations sharing a Redis keep apart', () => {
    expect(loadConfig({}).redisPrefix).toBe('amora:');
    expect(loadConfig({ REDIS_PREFIX: '' }).redisPrefix).toBe('amora:');
    expect(loadConfig({ REDIS_PREFIX: 'shop-2:' }).redisPrefix).toBe('shop-2:');
  });

  it('refuses a prefix with spaces, wildcards or over 64 characters', () => {
    for (const bad of ['a b', 'amora*', 'x'.repeat(65), 'amora:\n']) {
      expect(() => loadConfig({ REDIS_PREFIX: bad })).toThrow(/REDIS_PREFIX/);
    }
  });
});
