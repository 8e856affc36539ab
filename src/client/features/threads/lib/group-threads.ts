// The thread list's sections (spec sections 2 and 4): Default pinned on top, then Favorites, then
// the rest by days since lastMessageAt (0 Today, 1 Yesterday, under 7 'N days ago', under 30
// 'Last month', else Older). Search is a case-insensitive substring match on the title.
import type { Thread } from '#contract/threads.ts'

export interface ThreadSection {
  key: string
  label: string | null
  threads: Thread[]
  /** A project's folder: its threads, above the age groups. */
  project?: ProjectFolder
}

export interface ProjectFolder {
  id: string
  name: string
}

const DAY_MS = 24 * 60 * 60 * 1000

/** Whole calendar days between the two dates, in local time; the future counts as today. */
export function daysSince(date: Date, now: Date): number {
  const start = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime()
  return Math.max(0, Math.round((start(now) - start(date)) / DAY_MS))
}

export function ageGroup(days: number): { key: string; label: string; order: number } {
  if (days === 0) return { key: 'today', label: 'Today', order: 0 }
  if (days === 1) return { key: 'yesterday', label: 'Yesterday', order: 1 }
  if (days < 7) return { key: `days-${days}`, label: `${days} days ago`, order: days }
  if (days < 30) return { key: 'last-month', label: 'Last month', order: 7 }
  return { key: 'older', label: 'Older', order: 8 }
}

export function matchesSearch(thread: Thread, search: string): boolean {
  const needle = search.trim().toLowerCase()
  return !needle || thread.title.toLowerCase().includes(needle)
}

const isDefault = (t: Thread) => t.isDefault

const byRecent = (a: Thread, b: Thread) => Date.parse(b.lastMessageAt) - Date.parse(a.lastMessageAt)

export function groupThreads(
  threads: Thread[],
  now: Date,
  search = '',
  projects: ProjectFolder[] = [],
): ThreadSection[] {
  const visible = threads.filter((t) => matchesSearch(t, search))
  const sections: ThreadSection[] = []
  const pinned = visible.filter(isDefault)
  if (pinned.length) sections.push({ key: 'default', label: null, threads: pinned })
  // Projects as folders, under Default and above the rest; a folder shows even when empty.
  const inProject = new Set<string>()
  for (const project of projects) {
    const own = visible.filter((t) => !isDefault(t) && t.projectId === project.id).sort(byRecent)
    for (const t of own) inProject.add(t.id)
    if (own.length || !search.trim())
      sections.push({ key: `project-${project.id}`, label: project.name, threads: own, project })
  }
  const rest = visible.filter((t) => !isDefault(t) && !inProject.has(t.id)).sort(byRecent)
  const favorites = rest.filter((t) => t.isFavorite)
  if (favorites.length) sections.push({ key: 'favorites', label: 'Favorites', threads: favorites })
  const byAge = new Map<string, { label: string; order: number; threads: Thread[] }>()
  for (const thread of rest.filter((t) => !t.isFavorite)) {
    const group = ageGroup(daysSince(new Date(thread.lastMessageAt), now))
    const entry = byAge.get(group.key) ?? { label: group.label, order: group.order, threads: [] }
    entry.threads.push(thread)
    byAge.set(group.key, entry)
  }
  for (const [key, entry] of [...byAge].sort((a, b) => a[1].order - b[1].order))
    sections.push({ key, label: entry.label, threads: entry.threads })
  return sections
}
