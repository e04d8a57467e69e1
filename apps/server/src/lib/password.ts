import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum profile (19 MiB, 2 iterations, 1 lane).
const OPTS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hash a password with argon2id (DESIGN §3 security by default). */
export const hashPassword = (plain: string): Promise<string> => hash(plain, OPTS);

/** Constant-time check of a password against its argon2 hash; false on a malformed hash. */
export async function verifyPassword(hashed: string, plain: string): Promise<boolean> {
  try {
    return await verify(hashed, plain);
  } catch {
    return false;
  }
}
