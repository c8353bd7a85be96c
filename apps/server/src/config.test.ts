import { describe, expect, it } from 'vitest';
import { DEV_MAIL_REPORTS_TOKEN, loadConfig } from './config';

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

describe('payments', () => {
  const key = 'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM';

  it('uses the sandbox without MOLLIE_API_KEY outside production, and nothing in production unless PAYMENTS_SANDBOX', () => {
    expect(loadConfig({}).payments).toEqual({ mollieApiKey: null, mollieApiUrl: null, publicUrl: null, sandbox: true });
    expect(loadConfig({ NODE_ENV: 'test' }).payments.sandbox).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).payments.sandbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX: '1' }).payments.sandbox).toBe(true);
    expect(loadConfig({ PAYMENTS_SANDBOX: 'off' }).payments.sandbox).toBe(false);
  });

  it('goes to Mollie with MOLLIE_API_KEY, and the sandbox is never mounted then', () => {
    const payments = loadConfig({ MOLLIE_API_KEY: key, PAYMENTS_SANDBOX: '1', PAYMENTS_PUBLIC_URL: 'https://abc.example.dev/' }).payments;
    expect(payments).toEqual({ mollieApiKey: key, mollieApiUrl: null, publicUrl: 'https://abc.example.dev', sandbox: false });
    expect(loadConfig({ NODE_ENV: 'production', MOLLIE_API_KEY: key.replace('test_', 'live_') }).payments.mollieApiKey).toMatch(/^live_/);
  });

  it('refuses a key that is not a Mollie API key, and public URLs with a path, query or credentials', () => {
    for (const bad of ['abc', 'test_short', 'access_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM', `${key} `]) {
      expect(() => loadConfig({ MOLLIE_API_KEY: bad })).toThrow(/MOLLIE_API_KEY/);
    }
    for (const bad of [
      'abc.example.dev',
      'ftp://abc.example.dev',
      'https://abc.example.dev/shop',
      'https://u:p@abc.example.dev',
      'https://x.dev/?a=1',
    ]) {
      expect(() => loadConfig({ PAYMENTS_PUBLIC_URL: bad })).toThrow(/PAYMENTS_PUBLIC_URL/);
    }
    expect(loadConfig({ MOLLIE_API_URL: 'https://proxy.example.com/mollie/v2/' }).payments.mollieApiUrl).toBe(
      'https://proxy.example.com/mollie/v2/',
    );
    expect(() => loadConfig({ MOLLIE_API_URL: 'not a url' })).toThrow(/MOLLIE_API_URL/);
  });
});

describe('mail delivery health', () => {
  it('has the development token outside production, none in production unless MAIL_REPORTS_TOKEN', () => {
    expect(loadConfig({}).mail).toEqual({ bounceDomain: null, reportsToken: DEV_MAIL_REPORTS_TOKEN, reportsDir: null, dkim: null });
    expect(loadConfig({ NODE_ENV: 'production' }).mail?.reportsToken).toBeNull();
    const token = 'f3a9c1e07b5d4a2e9c8b7a6d5e4f3a2b';
    expect(loadConfig({ NODE_ENV: 'production', MAIL_REPORTS_TOKEN: token }).mail?.reportsToken).toBe(token);
    expect(() => loadConfig({ MAIL_REPORTS_TOKEN: 'short' })).toThrow(/MAIL_REPORTS_TOKEN/);
  });

  it('takes a bounce domain, and refuses what is no domain name', () => {
    expect(loadConfig({ MAIL_BOUNCE_DOMAIN: 'Bounces.Example.com' }).mail?.bounceDomain).toBe('bounces.example.com');
    for (const bad of ['not a domain', 'example', 'bounces@example.com', '-x.example.com']) {
      expect(() => loadConfig({ MAIL_BOUNCE_DOMAIN: bad })).toThrow(/MAIL_BOUNCE_DOMAIN/);
    }
  });

  it('signs with DKIM only with both a selector and a PEM key', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----';
    expect(loadConfig({ DKIM_SELECTOR: 'amora1', DKIM_PRIVATE_KEY: pem }).mail?.dkim).toEqual({
      selector: 'amora1',
      privateKey: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----',
    });
    expect(() => loadConfig({ DKIM_SELECTOR: 'amora1' })).toThrow(/DKIM/);
    expect(() => loadConfig({ DKIM_PRIVATE_KEY: pem })).toThrow(/DKIM/);
    expect(() => loadConfig({ DKIM_SELECTOR: 'amora1', DKIM_PRIVATE_KEY: 'secret' })).toThrow(/PEM/);
  });
});

describe('metrics', () => {
  it('has no metrics token unless METRICS_TOKEN (then /metrics is on), and refuses one shorter than 16 characters', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ NODE_ENV: 'production' }).metricsToken).toBeNull();
    const token = '0c1d2e3f4a5b6c7d8e9f';
    expect(loadConfig({ NODE_ENV: 'production', METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});

describe('media storage', () => {
  it('keeps the media in DATA_DIR unless S3_BUCKET is set', () => {
    expect(loadConfig({}).media).toEqual({ kind: 'local' });
  });

  it('takes a bucket on an S3-compatible server with S3_ENDPOINT (path-style; region "auto" unless given)', () => {
    const media = loadConfig({
      S3_BUCKET: 'amora-media',
      S3_ENDPOINT: 'https://abc.r2.cloudflarestorage.com/',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    }).media;
    expect(media).toEqual({
      kind: 's3',
      bucket: 'amora-media',
      region: 'auto',
      endpoint: 'https://abc.r2.cloudflarestorage.com',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'us-east-1' }).media).toMatchObject({
      region: 'us-east-1',
      credentials: null,
    });
  });

  it('takes a bucket on AWS S3 with S3_REGION, and refuses one without a region', () => {
    expect(loadConfig({ S3_BUCKET: 'amora-media', S3_REGION: 'eu-central-1' }).media).toMatchObject({
      kind: 's3',
      region: 'eu-central-1',
      endpoint: null,
    });
    expect(() => loadConfig({ S3_BUCKET: 'amora-media' })).toThrow(/S3_REGION/);
  });

  it('refuses half a configuration: S3_ variables without S3_BUCKET, one key without the other, a bad name or endpoint', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_ENDPOINT is set but S3_BUCKET is not/);
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_REGION: 'eu-west-1', S3_ACCESS_KEY_ID: 'key' })).toThrow(/go together/);
    expect(() => loadConfig({ S3_BUCKET: 'Media_Files', S3_REGION: 'eu-west-1' })).toThrow(/bucket name/);
    expect(() => loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'ftp://host' })).toThrow(/S3_ENDPOINT/);
  });
});
