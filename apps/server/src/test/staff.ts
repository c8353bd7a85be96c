import { randomBytes } from 'node:crypto';
import { STAFF_SESSION_COOKIE, type StaffRole } from '@amora/contracts';
import { expect } from 'vitest';
import { createStaff, currentCode } from '../modules/staff/staff.service';
import { call } from './accounts';
import type { TestApp } from './harness';

export interface StaffMember {
  id: number;
  email: string;
  password: string;
  role: StaffRole;
  /** The authenticator's secret, once set up at the first sign-in. */
  secret: string;
  /** `amora_staff=<token>` of a signed-in session, for the Cookie header. */
  cookie: string;
}

/** The console cookie a response set, for the next request's Cookie header. */
export function staffCookie(res: { cookies: { name: string; value: string }[] }): string {
  const cookie = res.cookies.find((c) => c.name === STAFF_SESSION_COOKIE);
  if (!cookie?.value) throw new Error('no console cookie in the response');
  return `${STAFF_SESSION_COOKIE}=${cookie.value}`;
}

/**
 * A staff member of `role`, signed in through the console's API as a person would: the password, then setting
 * up the authenticator with its first code. Each sign-in takes the next 30-second step of the app's clock, so a
 * code is never used twice.
 */
export async function createStaffMember(t: TestApp, role: StaffRole): Promise<StaffMember> {
  const email = `staff-${randomBytes(4).toString('hex')}@console.example`;
  const { staff, password } = await createStaff(t.ctx, { staffId: null, ip: '' }, { email, name: `Staff ${role}`, role });
  const first = await call(t, 'POST', '/api/console/login', { email, password });
  expect(first.statusCode, first.body).toBe(200);
  const secret = first.json().enroll.secret as string;
  const cookie = staffCookie(first);
  const second = await call(t, 'POST', '/api/console/login/second-factor', { code: await currentCode(secret, t.clock.now()) }, { cookie });
  expect(second.statusCode, second.body).toBe(200);
  return { id: staff.id, email, password, role, secret, cookie };
}

/** A call to the console's API as that staff member (or as nobody). */
export function callAsStaff(
  t: TestApp,
  who: StaffMember | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return call(t, method, url, payload, { cookie: who?.cookie });
}
