import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversations, dataExports, messages, profiles, users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mailsTo, tokenOf } from '../../test/accounts';
import { type CallArgs, callAs, createLike, createMember, createProfile, type Member, uploadPhoto } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { credit } from '../credits/credits.service';
import { purgeDeletedAccounts } from '../deletion/deletion.service';
import { expireExports } from './data-export.service';

const EXPORT = '/api/data-export.php';
const LATEST = `${EXPORT}?download=latest`;
const DAY = 86_400_000;

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-export-'));
  t = await createTestApp({ dataDir });
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  t.clock.set(new Date());
});

const as = (...args: CallArgs) => callAs(t, ...args);

async function siteOf(who: Member): Promise<number> {
  const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
  return row.siteId;
}

async function send(from: Member, to: Member, body: string): Promise<void> {
  const res = await as(from, 'POST', '/api/messages.php', { profile: to.profileId, body, client_id: randomUUID() });
  expect(res.statusCode, res.body).toBe(200);
}

/** A message from a fictional profile to the member, written as the demo data's are (no account behind it). */
async function fictionalWrites(siteId: number, to: Member, body: string): Promise<{ id: number; name: string }> {
  const fictional = await createProfile(t, { siteId, name: 'Noor', isFictional: true });
  const [low, high] = [fictional.id, to.profileId].sort((a, b) => a - b);
  const [talk] = await t.ctx.db
    .insert(conversations)
    .values({ siteId, profileLowId: low, profileHighId: high, startedByProfileId: fictional.id, lastSeq: 1 })
    .returning();
  await t.ctx.db.insert(messages).values({ conversationId: talk.id, seq: 1, senderProfileId: fictional.id, body, clientId: randomUUID() });
  return { id: fictional.id, name: fictional.name };
}

/** Asks for an export and runs its job; the link of the mail. */
async function exportOf(who: Member): Promise<string> {
  const asked = await as(who, 'POST', EXPORT);
  expect(asked.statusCode, asked.body).toBe(200);
  expect(asked.json()).toMatchObject({ status: 'pending', expires_at: null });
  await t.ctx.jobs.runDue();
  const [mail] = await mailsTo(t, who.email, 'data_export');
  expect(mail, 'the data_export mail').toBeDefined();
  const token = tokenOf(mail);
  return `${EXPORT}?download=1&token=${token}`;
}

/** The ZIP's entries and the text of every JSON file in it (through unzip). */
function readZip(bytes: Buffer): { names: string[]; json: Record<string, unknown>; text: string } {
  const file = join(dataDir, `read-${randomUUID()}.zip`);
  writeFileSync(file, bytes);
  try {
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
    const json: Record<string, unknown> = {};
    let text = '';
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const content = execFileSync('unzip', ['-p', file, name], { encoding: 'utf8' });
      json[name] = JSON.parse(content);
      text += content;
    }
    return { names, json, text };
  } finally {
    rmSync(file, { force: true });
  }
}

const exportFiles = () => (existsSync(join(dataDir, 'exports')) ? readdirSync(join(dataDir, 'exports')) : []);

describe('a member takes their data with them', () => {
  it('prepares a ZIP of everything of theirs, and nothing of another member', async () => {
    const me = await createMember(t, { name: 'Robin' });
    const other = await createMember(t, { name: 'Sasha' });
    const siteId = await siteOf(me);
    await credit(t.ctx, { userId: me.userId, siteId, amount: 500, reason: 'test' });
    await credit(t.ctx, { userId: other.userId, siteId, amount: 500, reason: 'test' });
    const photo = await uploadPhoto(t, me);
    await send(me, other, 'Hello from Robin');
    await send(other, me, 'Hi Robin, Sasha here');
    await createLike(t, me.profileId, other.profileId);
    await createLike(t, other.profileId, me.profileId);
    const fictional = await fictionalWrites(siteId, me, 'A message from a fictional profile');
    const blocked = await createProfile(t, { siteId, name: 'Blocked One' });
    expect((await as(me, 'POST', '/api/block.php', { profile_id: blocked.id })).statusCode).toBeLessThan(300);

    expect((await as(me, 'GET', EXPORT)).json()).toEqual({ status: 'none', requested_at: null, expires_at: null });
    const link = await exportOf(me);
    const status = (await as(me, 'GET', EXPORT)).json();
    expect(status.status).toBe('ready');
    expect(new Date(status.expires_at).getTime()).toBe(t.clock.now().getTime() + 7 * DAY);
    expect(link).toMatch(/^\/api\/data-export\.php\?download=1&token=[\w-]{43}$/);

    const res = await as(me, 'GET', link);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[\w-]+-my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const zip = readZip(res.rawPayload);

    expect(zip.names).toEqual(
      expect.arrayContaining([
        'account.json',
        'profile.json',
        'photos.json',
        'messages.json',
        'likes.json',
        'credits.json',
        'payments.json',
        'complaints.json',
        'blocks.json',
        `photos/${photo.id}/large.webp`,
        `photos/${photo.id}/thumb.webp`,
      ]),
    );
    expect(zip.json['account.json']).toMatchObject({ email: me.email, status: 'confirmed', read_receipts: true });
    expect(zip.json['account.json']).not.toHaveProperty('password_hash');
    expect(zip.json['profile.json']).toMatchObject({ id: me.profileId, name: 'Robin' });
    expect(zip.json['photos.json']).toEqual([expect.objectContaining({ id: photo.id, main: true })]);

    const talks = zip.json['messages.json'] as { with: { profile_id: number; fictional?: boolean }; messages: Record<string, unknown>[] }[];
    const withOther = talks.find((c) => c.with.profile_id === other.profileId);
    expect(withOther?.messages).toEqual([
      expect.objectContaining({ sender: 'me', text: 'Hello from Robin' }),
      expect.objectContaining({ sender: other.profileId, sender_name: 'Sasha', text: 'Hi Robin, Sasha here' }),
    ]);
    const withFictional = talks.find((c) => c.with.profile_id === fictional.id);
    expect(withFictional?.with.fictional).toBe(true);
    expect(withFictional?.messages).toEqual([
      expect.objectContaining({ sender: fictional.id, sender_name: 'Noor', fictional: true, text: 'A message from a fictional profile' }),
    ]);

    expect(zip.json['likes.json']).toEqual({
      given: [expect.objectContaining({ profile_id: other.profileId, name: 'Sasha' })],
      received: [expect.objectContaining({ profile_id: other.profileId, name: 'Sasha' })],
    });
    expect(zip.json['credits.json']).toEqual(expect.arrayContaining([expect.objectContaining({ change: 500, reason: 'test' })]));
    expect(zip.json['blocks.json']).toEqual([expect.objectContaining({ profile_id: blocked.id, name: 'Blocked One' })]);

    // Nothing of the other member beyond what I saw: never their address, their credits or their ledger.
    const everything = res.rawPayload.toString('latin1') + zip.text;
    expect(everything).not.toContain(other.email);
    expect(zip.text).not.toContain(other.email.split('@')[0]);

    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.userId, me.userId));
    expect(row.downloadedAt).not.toBeNull();
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(exportFiles()).toContain(`${row.fileKey}.zip`);
  });

  it('sends the link even to a member whose mail stopped: it answers their own request', async () => {
    const me = await createMember(t);
    await t.ctx.db
      .update(users)
      .set({ notificationsDisabled: ['unsubscribed'] })
      .where(eq(users.id, me.userId));
    await exportOf(me);
    const [mail] = await mailsTo(t, me.email, 'data_export');
    expect(mail.status).not.toBe('suppressed');
    expect(mail.text).toContain('7 days');
  });
});

describe('POST /api/data-export.php', () => {
  it('asks a visitor to log in', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await as(null, method, EXPORT);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('authentication_required');
    }
  });

  it('refuses a second request while one is pending or ready, and a new one within a day', async () => {
    const me = await createMember(t);
    expect((await as(me, 'POST', EXPORT)).statusCode).toBe(200);
    const again = await as(me, 'POST', EXPORT);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'export_pending', message_key: 'dataExport.errors.pending' });

    await t.ctx.jobs.runDue();
    const ready = await as(me, 'POST', EXPORT);
    expect(ready.statusCode).toBe(409);
    expect(ready.json()).toMatchObject({ error: 'export_ready', message_key: 'dataExport.errors.ready' });

    // Expired after a week: a new one may be asked for (the day has passed).
    t.clock.advance(7 * DAY + 1000);
    // Redis keeps the limit's window on its own clock: the week that passed on the app's clock passes there too.
    await t.ctx.limiter.resetAll(`data-export:${me.userId}`);
    expect((await as(me, 'GET', EXPORT)).json().status).toBe('expired');
    expect((await as(me, 'POST', EXPORT)).statusCode).toBe(200);

    // One that failed may be asked for again, but only the next day.
    await t.ctx.db.update(dataExports).set({ status: 'failed' }).where(eq(dataExports.userId, me.userId));
    const tooSoon = await as(me, 'POST', EXPORT);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toMatchObject({ error: 'rate_limited', message_key: 'dataExport.errors.tooSoon' });
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('GET /api/data-export.php?download=1', () => {
  it('refuses a malformed token', async () => {
    const me = await createMember(t);
    for (const token of ['', 'short', 'x'.repeat(43).replace('x', '/')]) {
      const res = await as(me, 'GET', `${EXPORT}?download=1&token=${encodeURIComponent(token)}`);
      expect(res.statusCode, token).toBe(400);
      expect(res.json().field).toBe('token');
    }
  });

  it('gives the file to its member alone: another member gets 404, a visitor is asked to log in', async () => {
    const me = await createMember(t);
    const other = await createMember(t);
    const link = await exportOf(me);
    const byOther = await as(other, 'GET', link);
    expect(byOther.statusCode).toBe(404);
    expect(byOther.json()).toEqual({ error: 'not_found', message: 'This download link is not valid' });
    const unknown = await as(me, 'GET', `${EXPORT}?download=1&token=${'a'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe(byOther.body);
    const byVisitor = await as(null, 'GET', link);
    expect(byVisitor.statusCode).toBe(403);
    expect(byVisitor.json().error).toBe('authentication_required');
    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.userId, me.userId));
    expect(row.downloadedAt).toBeNull();
  });

  it('answers 410 once the link has expired, and the daily job removes the file', async () => {
    const me = await createMember(t);
    const link = await exportOf(me);
    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.userId, me.userId));
    expect(exportFiles()).toContain(`${row.fileKey}.zip`);

    t.clock.advance(7 * DAY - 60_000);
    expect((await as(me, 'GET', link)).statusCode).toBe(200);
    expect(await expireExports(t.ctx)).toBe(0);

    t.clock.advance(60_000);
    const gone = await as(me, 'GET', link);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ error: 'export_expired', message_key: 'dataExport.errors.expired' });

    expect(await expireExports(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(exportFiles()).not.toContain(`${row.fileKey}.zip`);
    const [after] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.id, row.id));
    expect(after.status).toBe('expired');
    expect((await as(me, 'GET', link)).statusCode).toBe(410);
    expect((await as(me, 'GET', EXPORT)).json()).toMatchObject({ status: 'expired' });
  });

  it("serves the settings page's link: my latest export by my session alone", async () => {
    const me = await createMember(t);
    const other = await createMember(t);
    expect((await as(me, 'GET', LATEST)).statusCode).toBe(404);
    expect((await as(me, 'POST', EXPORT)).statusCode).toBe(200);
    expect((await as(me, 'GET', LATEST)).statusCode).toBe(404);
    await t.ctx.jobs.runDue();
    const res = await as(me, 'GET', LATEST);
    expect(res.statusCode, res.body).toBe(200);
    expect(readZip(res.rawPayload).json['account.json']).toMatchObject({ email: me.email });
    expect((await as(other, 'GET', LATEST)).statusCode).toBe(404);
    expect((await as(null, 'GET', LATEST)).statusCode).toBe(403);
    t.clock.advance(7 * DAY);
    expect((await as(me, 'GET', LATEST)).statusCode).toBe(410);
  });

  it('goes with the account: the purge removes the export and its file', async () => {
    const me = await createMember(t);
    await exportOf(me);
    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.userId, me.userId));
    expect((await as(me, 'DELETE', '/api/user.php', { password: me.password, reason: 'other' })).statusCode).toBe(200);
    t.clock.advance(15 * DAY);
    await purgeDeletedAccounts(t.ctx);
    expect(await t.ctx.db.select().from(dataExports).where(eq(dataExports.id, row.id))).toEqual([]);
    // The file goes once the purge has committed.
    await vi.waitFor(() => expect(exportFiles()).not.toContain(`${row.fileKey}.zip`));
  });
});
