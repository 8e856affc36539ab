import { hash, verify } from '@node-rs/argon2'

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 /* Argon2id */ } as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS)
}

// Verifying against this when the e-mail is unknown keeps both failures equally slow.
let dummyHash: Promise<string> | undefined

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password')
    await verify(await dummyHash, password).catch(() => false)
    return false
  }
  return verify(storedHash, password).catch(() => false)
}
