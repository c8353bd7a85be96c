import { auditLog } from '@amora/db';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts';
import { createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember, staffCookie } from '../../test/staff';
import { createStaff, currentCode } from './staff.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  // A new 30-second step for every test: a code of the one before is never the one to use.
  t.clock.advance(31_000);
});

const STEP = 30_000;

async function newStaff(role: 'admin' | 'moderator' | 'support' = 'moderator') {
  const email = `new-${Math.random().toString(36).slice(2, 10)}@console.example`;
  const { staff, password } = await createStaff(t.ctx, { staffId: null, ip: '' }, { email, name: 'New', role });
  return { id: staff.id, email, password };
}

describe('the sign-in', () => {
  it('takes the password, then sets up the authenticator with its first code and shows ten recovery codes once', async () => {
    const { email, password } = await newStaff();
    const first = await call(t, 'POST', '/api/console/login', { email, password });
    expect(first.statusCode, first.body).toBe(200);
    const { step, enroll } = first.json();
    expect(step).toBe('enroll');
    expect(enroll.otpauth_url).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    const cookie = staffCookie(first);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/Path=\/api\/console/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);

    // Before the code, the session can do nothing but bring it.
    expect((await call(t, 'GET', '/api/console/sessions', undefined, { cookie })).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/console/me', undefined, { cookie })).json().staff).toBeNull();

    const second = await call(
      t,
      'POST',
      '/api/console/login/second-factor',
      { code: await currentCode(enroll.secret, t.clock.now()) },
      { cookie },
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().step).toBe('done');
    expect(second.json().recovery_codes).toHaveLength(10);
    expect((await call(t, 'GET', '/api/console/me', undefined, { cookie })).json().staff.email).toBe(email);
  });

  it('refuses a wrong code and a code used before (replay), and takes a recovery code once', async () => {
    const { email, password } = await newStaff();
    const first = await call(t, 'POST', '/api/console/login', { email, password });
    const secret = first.json().enroll.secret as string;
    const enrolled = await call(
      t,
      'POST',
      '/api/console/login/second-factor',
      { code: await currentCode(secret, t.clock.now()) },
      {
        cookie: staffCookie(first),
      },
    );
    const [recovery] = enrolled.json().recovery_codes as string[];

    // The same code again, in the same step: refused.
    const again = await call(t, 'POST', '/api/console/login', { email, password });
    expect(again.json().step).toBe('second_factor');
    const cookie = staffCookie(again);
    const replay = await call(
      t,
      'POST',
      '/api/console/login/second-factor',
      { code: await currentCode(secret, t.clock.now()) },
      { cookie },
    );
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message_key).toBe('console.errors.codeWrong');
    const wrong = await call(t, 'POST', '/api/console/login/second-factor', { code: '000000' }, { cookie });
    expect(wrong.statusCode).toBe(401);

    const byRecovery = await call(t, 'POST', '/api/console/login/second-factor', { recovery_code: recovery }, { cookie });
    expect(byRecovery.statusCode, byRecovery.body).toBe(200);
    const third = await call(t, 'POST', '/api/console/login', { email, password });
    const reused = await call(t, 'POST', '/api/console/login/second-factor', { recovery_code: recovery }, { cookie: staffCookie(third) });
    expect(reused.statusCode).toBe(401);

    // The next step's code is good.
    t.clock.advance(STEP);
    const next = await call(
      t,
      'POST',
      '/api/console/login/second-factor',
      { code: await currentCode(secret, t.clock.now()) },
      {
        cookie: staffCookie(third),
      },
    );
    expect(next.statusCode, next.body).toBe(200);
  });

  it('answers a wrong password and an unknown address alike, and blocks after ten tries', async () => {
    const { email, password } = await newStaff();
    const unknown = await call(t, 'POST', '/api/console/login', { email: 'nobody@console.example', password });
    const wrong = await call(t, 'POST', '/api/console/login', { email, password: 'wrong-password' });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json().message_key).toBe(wrong.json().message_key);
    const tries = await Promise.all(
      Array.from({ length: 12 }, () => call(t, 'POST', '/api/console/login', { email, password: 'wrong-password' })),
    );
    expect(tries.filter((res) => res.statusCode === 429).length).toBeGreaterThanOrEqual(3);
    expect((await call(t, 'POST', '/api/console/login', { email, password })).statusCode).toBe(429);
  });

  it('refuses bad input with a 400', async () => {
    for (const body of [
      {},
      { email: 'x' },
      { email: 'a@b.example', password: '' },
      { email: 'a@b.example', password: 'x', role: 'admin' },
    ]) {
      expect((await call(t, 'POST', '/api/console/login', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const { email, password } = await newStaff();
    const cookie = staffCookie(await call(t, 'POST', '/api/console/login', { email, password }));
    for (const body of [{}, { code: '12345' }, { code: 'abcdef' }, { recovery_code: 'short' }]) {
      expect((await call(t, 'POST', '/api/console/login/second-factor', body, { cookie })).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it("never takes a member's session, and a member's cookie is not a console cookie", async () => {
    const member = await createMember(t);
    for (const [method, url] of [
      ['GET', '/api/console/sessions'],
      ['GET', '/api/console/staff'],
      ['GET', '/api/console/audit'],
    ] as const) {
      expect((await call(t, method, url, undefined, { cookie: member.cookie })).statusCode).toBe(401);
    }
    expect((await call(t, 'GET', '/api/console/me', undefined, { cookie: member.cookie })).json().staff).toBeNull();
  });
});

describe('who may call what', () => {
  let staff: Record<'admin' | 'moderator' | 'support', StaffMember>;
  beforeAll(async () => {
    staff = {
      admin: await createStaffMember(t, 'admin'),
      moderator: await createStaffMember(t, 'moderator'),
      support: await createStaffMember(t, 'support'),
    };
  });

  /** Every console route of the app, with who may call it (admin may always). */
  const ADMIN_ONLY = [
    ['GET', '/api/console/staff'],
    ['POST', '/api/console/staff'],
    ['PUT', '/api/console/staff/1'],
    ['GET', '/api/console/audit'],
  ] as const;
  const ANY_STAFF = [
    ['GET', '/api/console/sessions'],
    ['DELETE', '/api/console/sessions/0123456789abcdef'],
  ] as const;

  it('refuses a visitor every route but the sign-in, and a moderator or support the admin routes', async () => {
    for (const [method, url] of [...ADMIN_ONLY, ...ANY_STAFF]) {
      expect((await callAsStaff(t, null, method, url, {})).statusCode, `${method} ${url}`).toBe(401);
    }
    for (const who of [staff.moderator, staff.support]) {
      for (const [method, url] of ADMIN_ONLY) {
        const res = await callAsStaff(t, who, method, url, {});
        expect(res.statusCode, `${who.role} ${method} ${url}`).toBe(403);
      }
      for (const [method, url] of ANY_STAFF) {
        expect((await callAsStaff(t, who, method, url)).statusCode, `${who.role} ${method} ${url}`).not.toBe(403);
      }
    }
    expect((await callAsStaff(t, staff.admin, 'GET', '/api/console/staff')).statusCode).toBe(200);
  });

  it('sends console answers with no-store and DENY framing', async () => {
    const res = await callAsStaff(t, staff.admin, 'GET', '/api/console/staff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('lets an admin add staff, change them and not demote the last admin; each an audit row that cannot be edited', async () => {
    const created = await callAsStaff(t, staff.admin, 'POST', '/api/console/staff', {
      email: 'Helper@Console.example',
      name: 'Helper',
      role: 'support',
    });
    expect(created.statusCode, created.body).toBe(201);
    const { staff: helper, password } = created.json();
    expect(helper.email).toBe('helper@console.example');
    expect(password).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){4}$/);
    expect(
      (await callAsStaff(t, staff.admin, 'POST', '/api/console/staff', { email: 'helper@console.example', name: 'Again', role: 'support' }))
        .statusCode,
    ).toBe(409);

    const changed = await callAsStaff(t, staff.admin, 'PUT', `/api/console/staff/${helper.id}`, { role: 'moderator' });
    expect(changed.json().role).toBe('moderator');
    const [row] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.objectId, String(helper.id)))
      .orderBy(desc(auditLog.id));
    expect(row).toMatchObject({ staffId: staff.admin.id, action: 'staff.update', objectType: 'staff' });
    expect(row.before).toMatchObject({ role: 'support' });
    expect(row.after).toMatchObject({ role: 'moderator' });

    const page = await callAsStaff(t, staff.admin, 'GET', `/api/console/audit?object_type=staff&object_id=${helper.id}`);
    expect(page.json().entries.map((e: { action: string }) => e.action)).toEqual(['staff.update', 'staff.create']);
    // The audit log has no route that changes it.
    expect((await callAsStaff(t, staff.admin, 'DELETE', `/api/console/audit`)).statusCode).toBe(404);

    // Deactivating ends their sessions.
    const helperSession = staffCookie(await call(t, 'POST', '/api/console/login', { email: helper.email, password }));
    expect((await callAsStaff(t, staff.admin, 'PUT', `/api/console/staff/${helper.id}`, { is_active: false })).statusCode).toBe(200);
    expect((await call(t, 'POST', '/api/console/login/second-factor', { code: '123456' }, { cookie: helperSession })).statusCode).toBe(401);

    // The last active admin stays one (the other admins of this file are made inactive first).
    const admins = (await callAsStaff(t, staff.admin, 'GET', '/api/console/staff'))
      .json()
      .staff.filter((s: { role: string; is_active: boolean; id: number }) => s.role === 'admin' && s.is_active && s.id !== staff.admin.id);
    for (const other of admins) await callAsStaff(t, staff.admin, 'PUT', `/api/console/staff/${other.id}`, { is_active: false });
    const demote = await callAsStaff(t, staff.admin, 'PUT', `/api/console/staff/${staff.admin.id}`, { role: 'support' });
    expect(demote.statusCode).toBe(409);
  });

  it('lists my sessions and ends one; another staff member’s is not found', async () => {
    const list = await callAsStaff(t, staff.support, 'GET', '/api/console/sessions');
    const [mine] = list.json().sessions;
    expect(mine.current).toBe(true);
    expect((await callAsStaff(t, staff.moderator, 'DELETE', `/api/console/sessions/${mine.id}`)).statusCode).toBe(404);
    expect((await callAsStaff(t, staff.support, 'DELETE', `/api/console/sessions/${mine.id}`)).statusCode).toBe(200);
    expect((await callAsStaff(t, staff.support, 'GET', '/api/console/sessions')).statusCode).toBe(401);
  });
});
