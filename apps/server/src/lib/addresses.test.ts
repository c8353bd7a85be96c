import { describe, expect, it } from 'vitest';
import { addressKey } from './addresses';

describe('addressKey', () => {
  it('counts IPv4 addresses one by one', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const a = addressKey('2001:db8:1:2:aaaa::1');
    expect(a).toBe(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'));
    expect(a).not.toBe(addressKey('2001:db8:1:3::1'));
  });

  it('treats an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('keeps anything it cannot parse as it is', () => {
    expect(addressKey('not:an:address')).toBe('not:an:address');
  });
});
