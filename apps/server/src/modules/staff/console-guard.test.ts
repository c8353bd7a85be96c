import { type Endpoint, endpoints, STAFF_ROLES, type StaffRole } from '@amora/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts';
import { createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { createStaffMember, openConsoleStream, type StaffMember } from '../../test/staff';

/**
 * Every console route of the app, whoever registered it, called as a visitor, as a member and as each staff role:
 * the guard (plugins/staff-auth.ts) refuses exactly those its `config.staff` does not name (admin may always).
 * A new console route is in this test the moment it exists.
 */
let t: TestApp;
let member: Member;
const staff = {} as Record<StaffRole, StaffMember>;
beforeAll(async () => {
  t = await createTestApp();
  member = await createMember(t);
  for (const role of STAFF_ROLES) {
    staff[role] = await createStaffMember(t, role);
    // Each sign-in takes the next 30-second step of the authenticator.
    t.clock.advance(31_000);
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A path with its parameters filled: the guard answers before they are read. */
const pathOf = (url: string) => url.replace(/:(\w+)/g, (_match, name: string) => (name === 'kind' ? 'complaint' : '999999'));

/** A stream of events (the console's live channel) never ends by itself: it is opened as a stream and closed. */
const isStream = (method: string, url: string) => {
  const entry = (endpoints as Record<string, Endpoint>)[`${method} ${url}`];
  return entry !== undefined && 'unchecked' in entry.response && entry.response.unchecked === 'event-stream';
};

describe('the console guard', () => {
  it('has routes to check, the console’s live channel among them', () => {
    expect(t.app.consoleRoutes.length).toBeGreaterThan(20);
    expect(t.app.consoleRoutes).toContainEqual({ method: 'GET', url: '/api/console/live', staff: ['operator'] });
    expect(t.app.consoleRoutes.filter((route) => isStream(route.method, route.url)).length).toBeGreaterThan(0);
  });

  it('refuses a visitor and a member every console route but the sign-in’s own', async () => {
    for (const route of t.app.consoleRoutes.filter((r) => r.staff !== 'anyone')) {
      const name = `${route.method} ${route.url}`;
      const method = route.method as 'GET' | 'POST' | 'PUT' | 'DELETE';
      expect((await call(t, method, pathOf(route.url), method === 'GET' ? undefined : {})).statusCode, `visitor: ${name}`).toBe(401);
      const asMember = await call(t, method, pathOf(route.url), method === 'GET' ? undefined : {}, { cookie: member.cookie });
      expect(asMember.statusCode, `member: ${name}`).toBe(401);
    }
  });

  it('lets each role through exactly where its route names it, and admins everywhere', async () => {
    for (const route of t.app.consoleRoutes.filter((r) => r.staff !== 'anyone')) {
      const allowed = route.staff as readonly StaffRole[];
      for (const role of STAFF_ROLES) {
        // Refused calls change nothing; an allowed one may, so only reads are made as allowed roles.
        const method = route.method as 'GET' | 'POST' | 'PUT' | 'DELETE';
        const mayCall = role === 'admin' || allowed.includes(role);
        if (mayCall && method !== 'GET') continue;
        const name = `${role}: ${route.method} ${route.url}`;
        if (isStream(method, route.url)) {
          const stream = await openConsoleStream(t, staff[role], pathOf(route.url));
          stream.close();
          if (mayCall) expect(stream.status, name).toBe(200);
          else expect(stream.status, name).toBe(403);
          continue;
        }
        const res = await call(t, method, pathOf(route.url), method === 'GET' ? undefined : {}, { cookie: staff[role].cookie });
        if (mayCall) expect([401, 403], name).not.toContain(res.statusCode);
        else expect(res.statusCode, name).toBe(403);
      }
    }
  });
});
