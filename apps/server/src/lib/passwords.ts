import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** argon2id at OWASP's minimum or above: 19 MiB, 2 iterations. */
export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/** A real hash of nothing, so an unknown address costs as much time as a wrong password. */
let decoy: Promise<string> | null = null;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hashPassword('decoy-password-for-timing');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
