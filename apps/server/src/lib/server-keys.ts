import type { Database } from '@amora/db';
import { insertOrReadKey, type StoredKey } from './server-keys.repository';
import { dbOf } from './transaction';

export type { StoredKey } from './server-keys.repository';

/**
 * The keys the server signs with, by name: 'vapid' (Web Push), 'unsubscribe' (the secret of unsubscribe links),
 * 'verp' (the secret of the mails' return paths, modules/mail/verp.ts).
 */
export type ServerKeyName = 'vapid' | 'unsubscribe' | 'verp';

const cache = new WeakMap<Database, Map<ServerKeyName, Promise<StoredKey>>>();

/**
 * A key the server makes once and every process shares: read from the database, or made with `make` and stored
 * when there is none yet. Processes that start together agree on one (the first insert wins; the others read it).
 * Kept in memory per database after the first read: keys are never changed while the server runs.
 */
export function serverKey(ctx: { db: Database }, name: ServerKeyName, make: () => StoredKey): Promise<StoredKey> {
  let keys = cache.get(ctx.db);
  if (!keys) {
    keys = new Map();
    cache.set(ctx.db, keys);
  }
  let key = keys.get(name);
  if (!key) {
    key = insertOrReadKey(dbOf(ctx), name, make());
    keys.set(name, key);
    // A failed read is not kept: the next call tries again.
    key.catch(() => keys.delete(name));
  }
  return key;
}
