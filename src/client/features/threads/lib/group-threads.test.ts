import { describe, expect, it } from 'vitest'
import type { Thread } from '#contract/threads.ts'
import { ageGroup, daysSince, groupThreads } from './group-threads.ts'

const now = new Date(2026, 10, 22, 15, 0)
const daysAgo = (n: number, hour = 12) => new Date(2026, 10, 22 - n, hour).toISOString()

function thread(title: string, lastMessageAt: string, extra: Partial<Thread> = {}): Thread {
  return {
    id: title,
    title,
    isFavorite: false,
    isDefault: false,
    lastMessageAt,
    chatModel: 'gemini',
    createdAt: lastMessageAt,
    ...extra,
  }
}

const labels = (sections: ReturnType<typeof groupThreads>) =>
  sections.map((s) => [s.label, s.threads.map((t) => t.title)])

describe('ageGroup', () => {
  it.each([
    [0, 'Today'],
    [1, 'Yesterday'],
    [2, '2 days ago'],
    [6, '6 days ago'],
    [7, 'Last month'],
    [29, 'Last month'],
    [30, 'Older'],
    [400, 'Older'],
  ])('%i days is %s', (days, label) => {
    expect(ageGroup(days).label).toBe(label)
  })
})

describe('daysSince', () => {
  it('counts calendar days, not 24-hour spans', () => {
    expect(daysSince(new Date(2026, 10, 21, 23, 59), new Date(2026, 10, 22, 0, 1))).toBe(1)
    expect(daysSince(new Date(2026, 10, 22, 0, 1), new Date(2026, 10, 22, 23, 59))).toBe(0)
  })
  it('treats a date in the future as today', () => {
    expect(daysSince(new Date(2026, 10, 25), now)).toBe(0)
  })
})

describe('groupThreads', () => {
  const threads = [
    thread('Old notes', daysAgo(45)),
    thread('Default', daysAgo(3), { isDefault: true }),
    thread('Recipe', daysAgo(0, 9)),
    thread('Trip plan', daysAgo(0, 14)),
    thread('Garden', daysAgo(1)),
    thread('Budget', daysAgo(4), { isFavorite: true }),
    thread('Taxes', daysAgo(4)),
    thread('Essay', daysAgo(12)),
  ]

  it('pins Default, then Favorites, then age groups newest first', () => {
    expect(labels(groupThreads(threads, now))).toEqual([
      [null, ['Default']],
      ['Favorites', ['Budget']],
      ['Today', ['Trip plan', 'Recipe']],
      ['Yesterday', ['Garden']],
      ['4 days ago', ['Taxes']],
      ['Last month', ['Essay']],
      ['Older', ['Old notes']],
    ])
  })

  it('never lists a favorited Default among Favorites', () => {
    const list = [thread('Default', daysAgo(0), { isDefault: true, isFavorite: true })]
    expect(labels(groupThreads(list, now))).toEqual([[null, ['Default']]])
  })

  it('filters by a case-insensitive substring of the title', () => {
    expect(labels(groupThreads(threads, now, 'TRIP'))).toEqual([['Today', ['Trip plan']]])
    expect(labels(groupThreads(threads, now, 'a'))).toEqual([
      [null, ['Default']],
      ['Today', ['Trip plan']],
      ['Yesterday', ['Garden']],
      ['4 days ago', ['Taxes']],
      ['Last month', ['Essay']],
    ])
  })

  it('gives no sections when nothing matches', () => {
    expect(groupThreads(threads, now, 'zebra')).toEqual([])
  })
})

describe('projects as folders', () => {
  const projects = [
    { id: 'p1', name: 'Garden' },
    { id: 'p2', name: 'Empty' },
  ]
  it('shows each project under Default and above the age groups, its threads inside it only', () => {
    const sections = groupThreads(
      [
        thread('Default', daysAgo(0), { isDefault: true }),
        thread('Tomatoes', daysAgo(3), { projectId: 'p1' }),
        thread('Loose', daysAgo(0)),
      ],
      now,
      '',
      projects,
    )
    expect(sections.map((s) => s.label)).toEqual([null, 'Garden', 'Empty', 'Today'])
    expect(sections[1]?.threads.map((t) => t.title)).toEqual(['Tomatoes'])
    expect(sections[1]?.project?.id).toBe('p1')
    expect(sections[3]?.threads.map((t) => t.title)).toEqual(['Loose'])
  })

  it('hides folders with no match while searching', () => {
    const sections = groupThreads([thread('Tomatoes', daysAgo(3), { projectId: 'p1' })], now, 'tom', projects)
    expect(sections.map((s) => s.label)).toEqual(['Garden'])
  })
})
