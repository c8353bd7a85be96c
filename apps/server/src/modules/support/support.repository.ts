import {
  complaints,
  creditLedger,
  directDebitMandates,
  type Executor,
  memberSanctions,
  paymentEvents,
  paymentOrders,
  photos,
  profiles,
  sessions,
  sites,
  users,
} from '@amora/db';
import { and, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';

/**
 * Member support's reads (this module writes nothing: its actions go through the owners' services). Across every
 * site: staff find a member wherever they signed up.
 */

/** `text` as a LIKE pattern matching it anywhere, its wildcards taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/** What the search box holds, as conditions: an id (account or profile), `p123` (a profile), an address, a name. */
function searchCondition(q: string): SQL | undefined {
  const profileId = /^p(\d{1,15})$/i.exec(q);
  if (profileId) return eq(profiles.id, Number(profileId[1]));
  if (/^\d{1,15}$/.test(q)) return or(eq(users.id, Number(q)), eq(profiles.id, Number(q)));
  const pattern = containing(q.toLowerCase());
  if (q.includes('@')) return sql`lower(${users.email}) like ${pattern}`;
  return or(sql`lower(${profiles.name}) like ${pattern}`, sql`lower(${users.email}) like ${pattern}`);
}

export async function searchMembers(db: Executor, q: string, page: number, perPage: number) {
  const where = searchCondition(q);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        userId: users.id,
        profileId: profiles.id,
        email: users.email,
        name: profiles.name,
        status: users.status,
        signupDate: users.signupDate,
        siteId: sites.id,
        siteName: sites.name,
        siteDomain: sites.domain,
      })
      .from(users)
      .innerJoin(sites, eq(sites.id, users.siteId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(where)
      .orderBy(desc(users.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(users).leftJoin(profiles, eq(profiles.userId, users.id)).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function findMemberAccount(db: Executor, userId: number) {
  const [row] = await db
    .select({ user: users, profile: profiles, site: { id: sites.id, name: sites.name, domain: sites.domain } })
    .from(users)
    .innerJoin(sites, eq(sites.id, users.siteId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

export function photosOf(db: Executor, profileId: number) {
  return db.select().from(photos).where(eq(photos.profileId, profileId)).orderBy(desc(photos.createdAt));
}

export async function ordersOf(db: Executor, userId: number, limit: number) {
  const orders = await db
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.userId, userId))
    .orderBy(desc(paymentOrders.createdAt), desc(paymentOrders.id))
    .limit(limit);
  const events =
    orders.length === 0
      ? []
      : await db
          .select()
          .from(paymentEvents)
          .where(
            inArray(
              paymentEvents.orderId,
              orders.map((o) => o.id),
            ),
          )
          .orderBy(paymentEvents.createdAt, paymentEvents.id);
  return orders.map((order) => ({ order, events: events.filter((e) => e.orderId === order.id) }));
}

export function sessionsOf(db: Executor, userId: number, now: Date) {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sql`${sessions.expiresAt} > ${now.toISOString()}`))
    .orderBy(desc(sessions.lastSeenAt))
    .limit(50);
}

/** Complaints and reports the member filed, and reports about their profile; newest first. */
export async function reportsOf(db: Executor, userId: number, profileId: number | null) {
  const about = profileId === null ? undefined : eq(complaints.reportedProfileId, profileId);
  return db
    .select()
    .from(complaints)
    .where(about ? or(eq(complaints.userId, userId), about) : eq(complaints.userId, userId))
    .orderBy(desc(complaints.createdAt), desc(complaints.id))
    .limit(200);
}

export function sanctionsOf(db: Executor, userId: number) {
  return db.select().from(memberSanctions).where(eq(memberSanctions.userId, userId)).orderBy(desc(memberSanctions.createdAt));
}

export function mandatesOf(db: Executor, userId: number) {
  return db
    .select({
      id: directDebitMandates.id,
      ibanLast4: directDebitMandates.ibanLast4,
      status: directDebitMandates.status,
      createdAt: directDebitMandates.createdAt,
    })
    .from(directDebitMandates)
    .where(eq(directDebitMandates.userId, userId))
    .orderBy(desc(directDebitMandates.createdAt));
}

export async function ledgerPage(db: Executor, userId: number, page: number, perPage: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(creditLedger).where(eq(creditLedger.userId, userId)),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}
