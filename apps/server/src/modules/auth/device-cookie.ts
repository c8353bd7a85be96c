import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/**
 * Login device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; docs/decisions.md,
 * "Login throttling: device cookies"). A right password leaves in the browser a cookie signed for that account
 * (`<nonce>.<HMAC-SHA256(secret, site:address:nonce)>`: the address is not in it, so the cookie does not say whose
 * it is). A login that presents a valid one for the address it asks for is counted only against that device's own
 * allowance, so strangers guessing at the account from anywhere cannot slow its owner's known browser down.
 * One browser holds the cookie of the last account logged in with it.
 */
export const DEVICE_COOKIE = 'auth.device';
const DEVICE_DAYS = 180;
const NONCE = /^[A-Za-z0-9_-]{22}$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

/** Without COOKIE_SECRET: this process's own key (a cookie from another process or before a restart is not valid). */
let processSecret: Buffer | null = null;
function secretOf(configured: string | null | undefined): Buffer {
  if (configured) return Buffer.from(configured);
  processSecret ??= randomBytes(32);
  return processSecret;
}

function mac(secret: Buffer, account: string, nonce: string): string {
  return createHmac('sha256', secret).update(`login-device\0${account}\0${nonce}`).digest('base64url');
}

/**
 * The device's nonce when the request's device cookie is valid for `account` (`<site id>:<address asked for>`),
 * else null (no cookie, a malformed or forged one, or one of another account).
 */
export function trustedDevice(value: string | undefined, secret: string | null | undefined, account: string): string | null {
  if (!value || value.length > 80) return null;
  const [nonce, signature, extra] = value.split('.');
  if (extra !== undefined || !nonce || !signature || !NONCE.test(nonce) || !MAC.test(signature)) return null;
  const expected = Buffer.from(mac(secretOf(secret), account, nonce));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : null;
}

/** Gives the browser a new device cookie for `account` after a right password. */
export function setDeviceCookie(reply: FastifyReply, secret: string | null | undefined, account: string, secure: boolean): void {
  const nonce = randomBytes(16).toString('base64url');
  reply.setCookie(DEVICE_COOKIE, `${nonce}.${mac(secretOf(secret), account, nonce)}`, {
    path: '/api/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: DEVICE_DAYS * 86_400,
  });
}
