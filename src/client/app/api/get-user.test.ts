import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { User } from '#contract/user.ts'
import {
  endSessionHere,
  forgetOnSessionEnd,
  forgetThePersonWhenChanged,
  setUser,
  userQueryKey,
} from './get-user.ts'

const person = (id: string, treesPlanted = 0) => ({ id, email: `${id}@example.com`, treesPlanted }) as User

let forgotten = 0
forgetOnSessionEnd(() => {
  forgotten += 1
})

/** A cache holding the user `who` and one thread list of theirs, watched. */
function cacheFor(who: User | null) {
  const client = new QueryClient()
  forgetThePersonWhenChanged(client)
  client.setQueryData(userQueryKey, who)
  client.setQueryData(['/api/threads'], ['a thread'])
  forgotten = 0
  return client
}

const threadsKept = (client: QueryClient) => client.getQueryData(['/api/threads']) !== undefined

describe('forgetThePersonWhenChanged', () => {
  it('forgets the last person when someone else is signed in', async () => {
    const client = cacheFor(person('a'))
    await setUser(client, person('b'))
    expect(threadsKept(client)).toBe(false)
    expect(forgotten).toBe(1)
  })

  it('forgets them when no one is (their session ended elsewhere)', async () => {
    const client = cacheFor(person('a'))
    await client.fetchQuery({ queryKey: userQueryKey, queryFn: () => null, staleTime: 0 })
    expect(threadsKept(client)).toBe(false)
    expect(forgotten).toBe(1)
  })

  it('forgets them once when their session ends here (a sign-out), the page left first', async () => {
    const client = cacheFor(person('a'))
    const seenOnLeaving: boolean[] = []
    await endSessionHere(client, () => seenOnLeaving.push(threadsKept(client)))
    expect(seenOnLeaving).toEqual([true])
    expect(client.getQueryData(userQueryKey)).toBeNull()
    expect(threadsKept(client)).toBe(false)
    expect(forgotten).toBe(1)
  })

  it('keeps everything when the same person changes (a tree planted) or a visitor signs in', async () => {
    const same = cacheFor(person('a'))
    await setUser(same, person('a', 1))
    expect(threadsKept(same)).toBe(true)
    const visitor = cacheFor(null)
    await setUser(visitor, person('a'))
    expect(threadsKept(visitor)).toBe(true)
    expect(forgotten).toBe(0)
  })
})
