// Who may use the operator's console. ADMIN_EMAILS names operators by address, but only once the
// address is verified: an unverified account with that address may be anyone's. A grant from an
// operator is kept on the account (users.role).
import type { Env } from '#server/env.ts'
import type { UserRow } from './context.ts'

export type OperatorSource = 'config' | 'granted'

export function operatorSource(
  env: Pick<Env, 'ADMIN_EMAILS'>,
  user: Pick<UserRow, 'email' | 'emailVerifiedAt' | 'role'>,
): OperatorSource | null {
  if (user.emailVerifiedAt && env.ADMIN_EMAILS.includes(user.email.toLowerCase())) return 'config'
  if (user.role === 'operator') return 'granted'
  return null
}
