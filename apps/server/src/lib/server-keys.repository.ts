import { type Executor, serverKeys } from '@amora/db';
import { eq } from 'drizzle-orm';

export interface StoredKey {
  publicKey: string;
  privateKey: string;
}

/** Stores the key under `name` unless one is there already (another process made it first), and answers the one stored. */
export async function insertOrReadKey(db: Executor, name: string, key: StoredKey): Promise<StoredKey> {
  await db
    .insert(serverKeys)
    .values({ name, ...key })
    .onConflictDoNothing({ target: serverKeys.name });
  const [row] = await db
    .select({ publicKey: serverKeys.publicKey, privateKey: serverKeys.privateKey })
    .from(serverKeys)
    .where(eq(serverKeys.name, name));
  return row;
}
