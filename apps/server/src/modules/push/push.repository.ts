import { type Executor, profiles, pushSubscriptions, users } from '@amora/db';
import { and, eq, isNull, lt, or } from 'drizzle-orm';

export interface SubscriptionRow {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface NewSubscription {
  userId: number;
  siteId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string;
}

/**
 * Stores a browser's subscription, or renews it (`seen_at`, its keys, no back-off) when its endpoint is known. An
 * endpoint stored for another member moves to this one only with the same auth secret: the same browser, where
 * someone else logged in (an endpoint alone, which a page or a log may show, takes no one's pushes away).
 * Answers whether it is stored for this member now.
 */
export async function upsertSubscription(db: Executor, row: NewSubscription, now: Date): Promise<boolean> {
  const stored = await db
    .insert(pushSubscriptions)
    .values({ ...row, createdAt: now, seenAt: now })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        userId: row.userId,
        siteId: row.siteId,
        p256dh: row.p256dh,
        auth: row.auth,
        userAgent: row.userAgent,
        seenAt: now,
        retryAfter: null,
      },
      setWhere: or(eq(pushSubscriptions.userId, row.userId), eq(pushSubscriptions.auth, row.auth)),
    })
    .returning({ id: pushSubscriptions.id });
  return stored.length > 0;
}

/** Drops the member's subscription with this endpoint (nothing when it is someone else's). */
export async function deleteSubscription(db: Executor, userId: number, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** Drops a subscription its push service says is gone (404, 410). */
export async function deleteSubscriptionById(db: Executor, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/** The push service asked to wait (429): nothing goes to this subscription before `until`. */
export async function setRetryAfter(db: Executor, id: number, until: Date): Promise<void> {
  await db.update(pushSubscriptions).set({ retryAfter: until }).where(eq(pushSubscriptions.id, id));
}

/** The member's subscriptions on the site that take a push at `now` (not backing off). */
export function findDeliverable(db: Executor, userId: number, siteId: number, now: Date): Promise<SubscriptionRow[]> {
  return db
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.userId, userId),
        eq(pushSubscriptions.siteId, siteId),
        or(isNull(pushSubscriptions.retryAfter), lt(pushSubscriptions.retryAfter, now)),
      ),
    );
}

/** Drops the subscriptions no app start has sent again since `cutoff`; answers how many. */
export async function deleteUnseenSince(db: Executor, cutoff: Date): Promise<number> {
  const gone = await db.delete(pushSubscriptions).where(lt(pushSubscriptions.seenAt, cutoff)).returning({ id: pushSubscriptions.id });
  return gone.length;
}

/** What a push needs of the member: their site, language, account state and profile. */
export async function findRecipient(db: Executor, userId: number) {
  const [row] = await db
    .select({ siteId: users.siteId, language: users.language, status: users.status, profileId: profiles.id })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row ?? null;
}

/** The name a push shows of the member who wrote or liked, and whether that profile is fictional. */
export async function findSender(db: Executor, profileId: number): Promise<{ name: string; isFictional: boolean } | null> {
  const [row] = await db
    .select({ name: profiles.name, isFictional: profiles.isFictional })
    .from(profiles)
    .where(eq(profiles.id, profileId));
  return row ?? null;
}
