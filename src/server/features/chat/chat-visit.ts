// Who opens /chat, for the preloads in its HTML (decision 018): the chat then finds the
// messages it shows first already on their way. The rules are the client's
// (use-thread-selection.ts): the thread in the address, none on /chat/new, else Default.
import type { Context } from 'hono'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import type { ChatVisit } from '#server/lib/route-preloads.ts'
import { readSession } from '#server/lib/session.ts'
import { findDefaultThread } from './queries.ts'

const THREAD_PATH = /^\/chat\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i
const NEW_PATH = /^\/chat\/new\/?$/i

export function chatVisitFor(deps: AppDeps) {
  return async (c: Context<AppEnv>): Promise<ChatVisit> => {
    const found = await readSession(c, deps)
    if (!found) return { signedIn: false, threadId: null }
    const inPath = THREAD_PATH.exec(c.req.path)?.[1]?.toLowerCase()
    if (inPath) return { signedIn: true, threadId: inPath }
    if (NEW_PATH.test(c.req.path)) return { signedIn: true, threadId: null }
    const thread = await findDefaultThread(deps.database.db, found.user.id)
    return { signedIn: true, threadId: thread?.id ?? null }
  }
}
