import { type Executor, pageBounces } from '@amora/db';
import { sql } from 'drizzle-orm';

/** Counts one bounce of a landing path on a day, with the time the page was visible. */
export async function addBounce(db: Executor, bounce: { siteId: number; day: string; path: string; visibleMs: number }): Promise<void> {
  await db
    .insert(pageBounces)
    .values({ siteId: bounce.siteId, day: bounce.day, path: bounce.path, bounces: 1, totalVisibleMs: bounce.visibleMs })
    .onConflictDoUpdate({
      target: [pageBounces.siteId, pageBounces.day, pageBounces.path],
      set: {
        bounces: sql`${pageBounces.bounces} + 1`,
        totalVisibleMs: sql`${pageBounces.totalVisibleMs} + ${bounce.visibleMs}`,
      },
    });
}
