// Where each imported message goes in its thread's tree (decision 012) and which are shown
// (decision 021), computed from the file before any row is written.
import { randomUUID } from 'node:crypto'
import type { ImportedThread } from './parse.ts'

/**
 * Where each imported message goes in the thread's tree (decision 012): a Loris export's versions
 * keep their shape (each follows the exchange it followed there); anything else (ChatGPT, older
 * Loris exports) becomes one chain, each message following the one before, so all are shown.
 */
export function importedTree(t: Pick<ImportedThread, 'messages'>, root: string | null) {
  const ids = t.messages.map(() => randomUUID())
  const versioned = t.messages.some((m) => m.selectedAt)
  const byKey = new Map<string, string>()
  if (versioned)
    t.messages.forEach((m, i) => {
      if (m.key) byKey.set(m.key, ids[i] as string)
    })
  const parents = t.messages.map((m, i) => {
    if (!versioned) return i === 0 ? root : (ids[i - 1] as string)
    return (m.parentKey ? byKey.get(m.parentKey) : undefined) ?? root
  })
  return { ids, parents }
}

/** When a message was selected, as its row stores it: a message never selected, when created. */
const selectedTime = (m: ImportedThread['messages'][number]) => Date.parse(m.selectedAt ?? m.createdAt)

/**
 * The depth and shown flag of each imported message (decision 021), as chat/shown-branch.ts
 * reshowThread would compute them from the rows, in one pass over the tree instead of a statement
 * over the thread. The imported messages start below `root` (the thread's shown leaf, at
 * `rootDepth`, or nothing): what the thread showed stays shown, the import's branch follows it.
 * At each turn the version shown is the one selected last, then created last, then of greatest id.
 * A message whose parents never reach the root (a cycle in an edited export) is in no branch: depth
 * 0, not shown, as the recursive statement leaves it.
 */
export function importedBranch(
  t: Pick<ImportedThread, 'messages'>,
  tree: { ids: string[]; parents: Array<string | null> },
  root: string | null,
  rootDepth: number,
) {
  const index = new Map(tree.ids.map((id, i) => [id, i]))
  const children = new Map<string | null, number[]>()
  tree.parents.forEach((parent, i) => {
    const key = parent !== null && (index.has(parent) || parent === root) ? parent : root
    const list = children.get(key)
    if (list) list.push(i)
    else children.set(key, [i])
  })
  const depth = new Array<number>(tree.ids.length).fill(0)
  const shown = new Array<boolean>(tree.ids.length).fill(false)
  const firstDepth = root === null ? 0 : rootDepth + 1
  // Breadth first from the root: every reachable message gets its depth.
  let level = children.get(root) ?? []
  for (let d = firstDepth; level.length > 0; d++) {
    const next: number[] = []
    for (const i of level) {
      depth[i] = d
      next.push(...(children.get(tree.ids[i] as string) ?? []))
    }
    level = next
  }
  const later = (a: number, b: number) => {
    const ma = t.messages[a] as ImportedThread['messages'][number]
    const mb = t.messages[b] as ImportedThread['messages'][number]
    return (
      selectedTime(ma) - selectedTime(mb) ||
      Date.parse(ma.createdAt) - Date.parse(mb.createdAt) ||
      ((tree.ids[a] as string) > (tree.ids[b] as string) ? 1 : -1)
    )
  }
  const seen = new Set<number>()
  for (let turn = children.get(root); turn && turn.length > 0; ) {
    const pick = turn.reduce((best, i) => (later(i, best) > 0 ? i : best))
    if (seen.has(pick)) break
    seen.add(pick)
    shown[pick] = true
    turn = children.get(tree.ids[pick] as string)
  }
  return { depth, shown }
}

/**
 * Every imported exchange is 'import' (decision 040): the person wrote it, but not here, so it
 * counts as no message sent (the sent count, trees, the upgrade prompt), whatever the file says;
 * a crafted export of 'sent' exchanges planted a tree for every two. What is shown does not change:
 * versions come from the parents and selection times, not from the origin. Only 'copy' is kept,
 * which counts as no message either and keeps a copy's CO2 out of the history (counted once, at
 * its source).
 */
export const importedOrigin = (origin: string | null | undefined) =>
  origin === 'copy' ? ('copy' as const) : ('import' as const)
