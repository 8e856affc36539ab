// Message versions as a tree (docs/decisions/012-message-versions.md): each exchange names the
// exchange it follows (parentId); exchanges sharing a parent are versions of one turn. The shown
// branch takes, at every turn, the version selected most recently.

export interface BranchNode {
  id: string
  parentId: string | null
  selectedAt: Date
  createdAt: Date
}

const ROOT = ''

const byCreation = (a: BranchNode, b: BranchNode) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** Versions of each turn, keyed by their parent ('' for the first turn), oldest first. */
export function childrenByParent<T extends BranchNode>(rows: T[]): Map<string, T[]> {
  const ids = new Set(rows.map((r) => r.id))
  const children = new Map<string, T[]>()
  for (const row of rows) {
    // A parent outside the list (never expected) reads as the start: nothing goes missing.
    const key = row.parentId && ids.has(row.parentId) ? row.parentId : ROOT
    const list = children.get(key)
    if (list) list.push(row)
    else children.set(key, [row])
  }
  for (const list of children.values()) list.sort(byCreation)
  return children
}

function selected<T extends BranchNode>(versions: T[]): T | undefined {
  let best: T | undefined
  for (const v of versions) {
    if (
      !best ||
      v.selectedAt.getTime() > best.selectedAt.getTime() ||
      (v.selectedAt.getTime() === best.selectedAt.getTime() && byCreation(v, best) > 0)
    )
      best = v
  }
  return best
}

export interface BranchEntry<T> {
  row: T
  /** The ids of this turn's versions, oldest first (this row's among them). */
  versionIds: string[]
}

/** The shown conversation: from the first turn, the selected version of each turn. */
export function activeBranch<T extends BranchNode>(rows: T[]): BranchEntry<T>[] {
  const children = childrenByParent(rows)
  const branch: BranchEntry<T>[] = []
  const seen = new Set<string>()
  let versions = children.get(ROOT)
  while (versions?.length) {
    const row = selected(versions)
    if (!row || seen.has(row.id)) break
    seen.add(row.id)
    branch.push({ row, versionIds: versions.map((v) => v.id) })
    versions = children.get(row.id)
  }
  return branch
}
