import { randomBytes, timingSafeEqual } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

/**
 * argon2id at the OWASP ASVS minimum or above (m = 19 MiB, t = 2, p = 1), in WebAssembly (hash-wasm): no native
 * build, the same on every platform. Hashes are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$…`), so the
 * parameters can be raised later and old hashes still verify. See docs/decisions/0004-auth-library.md.
 */
export const ARGON2_PARAMS = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

export async function hashPassword(password: string): Promise<string> {
  return argon2id({ password, salt: randomBytes(16), ...ARGON2_PARAMS, outputType: 'encoded' });
}

export async function verifyPassword(data: { hash: string; password: string }): Promise<boolean> {
  if (!data.hash.startsWith('$argon2id$')) return false;
  try {
    return await argon2Verify({ password: data.password, hash: data.hash });
  } catch {
    return false;
  }
}

/** Burns the same time as a real verification, so an unknown e-mail answers as slowly as a wrong password. */
let dummyHash: Promise<string> | null = null;
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(12).toString('hex'));
  const ok = await verifyPassword({ hash: await dummyHash, password });
  timingSafeEqual(Buffer.from([ok ? 1 : 0]), Buffer.from([0]));
}
