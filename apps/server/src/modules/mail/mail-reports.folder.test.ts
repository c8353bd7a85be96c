import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '../../job-specs';
import { mailsTo } from '../../test/accounts';
import { createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { deliveryStatusReport, feedbackReport } from '../../test/mail-reports';
import { readMailReportsFolder } from './mail-reports.folder';
import { verpAddress, verpSecret } from './verp';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'amora-maildir-'));
  for (const sub of ['new', 'cur', 'tmp']) mkdirSync(join(dir, sub));
  t = await createTestApp({ mail: { reportsToken: null, bounceDomain: null, reportsDir: dir, dkim: null } });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bounce mailbox as a Maildir (MAIL_REPORTS_DIR)', () => {
  it('is read every minute by a recurring job', () => {
    expect(JOBS['mail.read-reports'].everyMs).toBe(60_000);
  });

  it('reads each new message once, then moves it to cur/ marked seen', async () => {
    const bounced = await createMember(t);
    const complained = await createMember(t);
    const pathOf = async (email: string) => verpAddress(await verpSecret(t.ctx), (await mailsTo(t, email))[0].id, 'amora.localhost');
    writeFileSync(
      join(dir, 'new', '1764366902.M1P2.mx'),
      deliveryStatusReport({ to: await pathOf(bounced.email), recipient: bounced.email, id: 'dir-1@mx' }),
    );
    writeFileSync(
      join(dir, 'new', '1764366903.M2P2.mx'),
      feedbackReport({ returnPath: await pathOf(complained.email), recipient: complained.email, id: 'dir-2@fbl' }),
    );
    writeFileSync(join(dir, 'new', '1764366904.M3P2.mx'), 'Subject: out of office\r\n\r\nBack on Monday.\r\n');
    writeFileSync(join(dir, 'new', '1764366905.M4P2.mx'), `Subject: huge\r\n\r\n${'x'.repeat(1024 * 1024 + 1)}`);

    expect(await readMailReportsFolder(t.ctx)).toEqual({ disabled: 2, ignored: 1, too_large: 1 });
    const reasons = async (userId: number) =>
      (await t.ctx.db.select({ r: users.notificationsDisabled }).from(users).where(eq(users.id, userId)))[0].r;
    expect(await reasons(bounced.userId)).toEqual(['bounce']);
    expect(await reasons(complained.userId)).toEqual(['fbl']);
    expect(readdirSync(join(dir, 'new'))).toEqual([]);
    expect(readdirSync(join(dir, 'cur')).sort()).toEqual([
      '1764366902.M1P2.mx:2,S',
      '1764366903.M2P2.mx:2,S',
      '1764366904.M3P2.mx:2,S',
      '1764366905.M4P2.mx:2,S',
    ]);
    // The next run finds nothing new.
    expect(await readMailReportsFolder(t.ctx)).toEqual({});
  });

  it('does nothing without MAIL_REPORTS_DIR', async () => {
    expect(await readMailReportsFolder({ ...t.ctx, config: { ...t.ctx.config, mail: undefined } })).toEqual({});
  });
});
