import { users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { JOBS } from './job-specs';
import { registerJobs } from './jobs';
import { createJobs, type JobHandler } from './lib/jobs';
import { createMember } from './test/factories';
import { createTestApp, type TestApp } from './test/harness';

const DAY = 86_400_000;
const quiet = { info() {}, warn() {} };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(new Date());
});
afterAll(async () => {
  await t?.close();
});

async function deletedMember(daysAgo: number): Promise<number> {
  const member = await createMember(t, { activate: false });
  await t.ctx.db
    .update(users)
    .set({ status: 'deleted', deletedAt: new Date(t.clock.now().getTime() - daysAgo * DAY) })
    .where(eq(users.id, member.userId));
  return member.userId;
}

const exists = async (userId: number) => (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId))).length === 1;

type Jobs = TestApp['ctx']['jobs'];

/** `jobs` whose purge runs are counted (other modules' recurring jobs, such as the direct-debit clean-up, run beside it). */
function countingPurges(jobs: Jobs, runs: { count: number }): Jobs {
  const counting: Jobs = Object.create(jobs);
  counting.handle = (name, handler) =>
    jobs.handle(name, async (payload, job) => {
      if (name === 'accounts.purge') runs.count++;
      return (handler as JobHandler<unknown>)(payload, job);
    });
  return counting;
}

it('purges deleted accounts hourly with a recurring job, once per hour across two processes', async () => {
  // This app's jobs and a second process's on the same database, both with the server's jobs.
  const second = createJobs({ db: t.ctx.db, specs: JOBS, now: t.clock.now });
  const purges = { count: 0 };
  // The app registered its handlers (buildApp); they are registered again here, counted.
  registerJobs(countingPurges(t.ctx.jobs, purges), { ctx: t.ctx, log: quiet });
  registerJobs(countingPurges(second, purges), { ctx: t.ctx, log: quiet });
  const purgedOnce = async (first: Jobs, other: Jobs) => {
    const before = purges.count;
    await Promise.all([first.runDue(), other.runDue()]);
    return purges.count - before;
  };
  try {
    const due = await deletedMember(15);
    const recent = await deletedMember(13);
    expect(await purgedOnce(t.ctx.jobs, second)).toBe(1);
    expect(await exists(due)).toBe(false);
    expect(await exists(recent)).toBe(true);

    // A day later the other account is due too: the period then purges it, in one of the two processes.
    t.clock.advance(DAY + 60_000);
    expect(await purgedOnce(t.ctx.jobs, second)).toBe(1);
    expect(await exists(recent)).toBe(false);

    // An account that becomes due within the hour waits for the next period.
    const late = await deletedMember(15);
    t.clock.advance(30 * 60_000);
    expect(await purgedOnce(t.ctx.jobs, second)).toBe(0);
    expect(await exists(late)).toBe(true);
    t.clock.advance(31 * 60_000);
    expect(await purgedOnce(second, t.ctx.jobs)).toBe(1);
    expect(await exists(late)).toBe(false);
  } finally {
    await second.stop();
  }
});
