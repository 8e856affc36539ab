// The accounts browser tests sign up with.

/** The password every browser test signs up with. */
export const password = 'a strong password'

let n = 0
/** An e-mail address unique per attempt, so a retry never meets the account its first run created. */
export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++n}@example.com`
