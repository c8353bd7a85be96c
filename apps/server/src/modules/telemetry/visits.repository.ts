import { type Executor, siteVisits } from '@amora/db';
import { and, gte, lt, type SQL, sql } from 'drizzle-orm';

export interface VisitKey {
  siteId: number;
  day: string;
  lander: string;
  slug: string;
  network: string;
}

/**
 * A site's day keeps at most this many lander/slug/network rows: the network comes from the address, so a client
 * inventing a new one on every cookieless load would otherwise add rows without end. Past it, a new network is
 * counted as `OTHER_NETWORK` (its lander and slug kept, as those come from the site's own paths).
 */
export const MAX_SOURCES_PER_DAY = 1000;
export const OTHER_NETWORK = '(other)';

/** One visit more for its site, day, lander, slug and network: one statement, safe with any number at once. */
export async function addVisit(db: Executor, visit: VisitKey): Promise<void> {
  const v = siteVisits;
  const known = sql`exists (select 1 from ${v} k where k.site_id = ${visit.siteId} and k.day = ${visit.day}
    and k.lander = ${visit.lander} and k.slug = ${visit.slug} and k.network = ${visit.network})`;
  const room = sql`(select count(*) from (select 1 from ${v} c where c.site_id = ${visit.siteId} and c.day = ${visit.day}
    limit ${MAX_SOURCES_PER_DAY}) n) < ${MAX_SOURCES_PER_DAY}`;
  await db.execute(sql`insert into ${v} (site_id, day, lander, slug, network, visits)
    select ${visit.siteId}, ${visit.day}, ${visit.lander}, ${visit.slug},
      case when ${visit.network} = '' or ${known} or ${room} then ${visit.network} else ${OTHER_NETWORK} end, 1
    on conflict (day, site_id, lander, slug, network) do update set visits = ${v}.visits + 1`);
}

/** Days `from` (included) to `until` (not included), YYYY-MM-DD; one site, or null for every site. */
export interface VisitPeriod {
  from: string;
  until: string;
  siteId: number | null;
}

const inPeriod = (p: VisitPeriod): SQL | undefined =>
  and(gte(siteVisits.day, p.from), lt(siteVisits.day, p.until), p.siteId === null ? undefined : sql`${siteVisits.siteId} = ${p.siteId}`);

/** Visits per day of the period (days without any are left out). */
export async function visitsPerDay(db: Executor, p: VisitPeriod): Promise<{ day: string; count: number }[]> {
  const rows = await db
    .select({ day: siteVisits.day, count: sql<string>`sum(${siteVisits.visits})` })
    .from(siteVisits)
    .where(inPeriod(p))
    .groupBy(siteVisits.day);
  return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
}

/** The period's visits per lander, slug and network (a site-day has at most MAX_SOURCES_PER_DAY of them). */
export async function visitsPerSource(
  db: Executor,
  p: VisitPeriod,
): Promise<{ lander: string; slug: string; network: string; visits: number }[]> {
  const visits = sql<string>`sum(${siteVisits.visits})`;
  const rows = await db
    .select({
      lander: siteVisits.lander,
      slug: siteVisits.slug,
      network: siteVisits.network,
      visits,
    })
    .from(siteVisits)
    .where(inPeriod(p))
    .groupBy(siteVisits.lander, siteVisits.slug, siteVisits.network);
  return rows.map((r) => ({ lander: r.lander, slug: r.slug, network: r.network, visits: Number(r.visits) }));
}
