// The conversation view (spec section 2): centred, max-w-5xl, as tall as its area (the viewport
// minus 140 px, decision 053), virtualized so a thread of a
// thousand exchanges stays fast, scrolled smoothly to the bottom 100 ms after the messages or the
// loading state change (500 ms after a pending sign-in send). Older exchanges load a page at a
// time as the reader scrolls up, and the view stays on what they were reading.
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { cn } from '#client/lib/cn.ts'
import { clearFocusedMessage, pendingFocus, useFocusedMessage } from '../hooks/use-focus-message.ts'
import type { Insets } from '../hooks/use-overlay-insets.ts'
import { Exchange, type ExchangeView } from './exchange.tsx'

export interface ConversationItem {
  key: string
  exchange: ExchangeView
}

const NEAR_BOTTOM_PX = 160
/** How close to the top the next page of older exchanges is asked for. */
const NEAR_TOP_PX = 600

export function Conversation({
  items,
  loading,
  scrollDelayMs,
  resetKey,
  onReachTop,
  complete,
  insets = { top: 0, bottom: 0 },
}: {
  items: ConversationItem[]
  loading: boolean
  /** 100 ms normally; 500 ms right after a pending sign-in send. */
  scrollDelayMs: number
  /** Changes when another thread is shown: jump to its end at once. */
  resetKey: string
  /** Loads older exchanges; absent when there are none or a page is on its way. */
  onReachTop?: () => void
  /** Every exchange of the thread is loaded: a search match not among them is not there. */
  complete: boolean
  /** What floats over the view's edges (the title bar, the composer): content stays clear of it. */
  insets?: Insets
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 180,
    overscan: 4,
    paddingStart: insets.top,
    paddingEnd: insets.bottom,
    scrollPaddingStart: insets.top,
    scrollPaddingEnd: insets.bottom,
    getItemKey: (index) => items[index]?.key ?? index,
  })

  // Another thread: start at its last exchange without animation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the shown thread changes
  useLayoutEffect(() => {
    if (items.length && !pendingFocus()) virtualizer.scrollToIndex(items.length - 1, { align: 'end' })
  }, [resetKey])

  // Whether the view keeps to the bottom as its content grows: until the reader scrolls up.
  const stickRef = useRef(true)
  const lastTopRef = useRef(0)
  const followBottom = (el: HTMLDivElement) => {
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX) stickRef.current = true
    else if (el.scrollTop < lastTopRef.current) stickRef.current = false
    lastTopRef.current = el.scrollTop
  }

  // A search match was chosen: bring its exchange into view (once its thread's messages are in)
  // and mark it for a moment.
  const focused = useFocusedMessage()
  const [marked, setMarked] = useState<string | null>(null)
  const markedRef = useRef<string | null>(null)
  markedRef.current = marked
  // biome-ignore lint/correctness/useExhaustiveDependencies: the virtualizer is stable
  useEffect(() => {
    // Its thread is not shown yet: this one's exchanges are not searched for it.
    if (!focused || focused.threadId !== resetKey) return
    const index = items.findIndex((item) => item.exchange.id === focused.messageId)
    // Not among the loaded exchanges yet: load older ones until it is; with none left it is not
    // there (deleted since the search), and the view goes back to its usual ways.
    if (index < 0) {
      if (complete) clearFocusedMessage()
      else onReachTop?.()
      return
    }
    virtualizer.scrollToIndex(index, { align: 'start' })
    // Stay on the match: neither the list's growth nor the late scroll pulls it to the bottom.
    stickRef.current = false
    markedRef.current = focused.messageId
    setMarked(focused.messageId)
    clearFocusedMessage()
  }, [focused, items, onReachTop, complete, resetKey])
  useEffect(() => {
    if (!marked) return
    const timer = setTimeout(() => setMarked(null), 2500)
    return () => clearTimeout(timer)
  }, [marked])

  // Older exchanges came in above: keep the ones being read where they were on screen.
  const firstKey = items[0]?.key
  const shownRef = useRef<{ firstKey: string | undefined; scrollTop: number }>({ firstKey, scrollTop: 0 })
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the first exchange changes
  useLayoutEffect(() => {
    const before = shownRef.current
    const el = scrollRef.current
    if (el && before.firstKey && firstKey !== before.firstKey) {
      const added = items.findIndex((item) => item.key === before.firstKey)
      const start = added > 0 ? virtualizer.getOffsetForIndex(added, 'start')?.[0] : undefined
      if (start !== undefined) virtualizer.scrollToOffset(start + before.scrollTop)
    }
    shownRef.current = { firstKey, scrollTop: el?.scrollTop ?? 0 }
  }, [firstKey])
  const onScroll = () => {
    const el = scrollRef.current
    if (!el) return
    followBottom(el)
    shownRef.current.scrollTop = el.scrollTop
    if (onReachTop && el.scrollTop < NEAR_TOP_PX && el.scrollHeight > el.clientHeight) onReachTop()
  }

  // A new last exchange (a send, not older ones loaded above) goes to the end; a change of the
  // loading state (a reply finished) does so only for a reader still at the bottom: one who
  // scrolled up to read stays where they are.
  const lastKey = items.at(-1)?.key
  const seenLastKeyRef = useRef(lastKey)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the last exchange and loading state are the triggers
  useEffect(() => {
    const newLast = seenLastKeyRef.current !== lastKey
    seenLastKeyRef.current = lastKey
    if (newLast && !pendingFocus() && !markedRef.current) stickRef.current = true
    const timer = setTimeout(() => {
      if (pendingFocus() || markedRef.current || !stickRef.current) return
      const el = scrollRef.current
      el?.scrollTo({ top: el.scrollHeight, behavior: 'smooth' })
    }, scrollDelayMs)
    return () => clearTimeout(timer)
  }, [lastKey, loading, scrollDelayMs])

  // Content that grows after the scroll (an attached image loading, a reply measured late) would
  // push the newest reply under the composer: keep to the bottom while the reader is there. The
  // list's own height follows a render later (its padding under the composer with it): both count.
  const contentRef = useRef<HTMLDivElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = scrollRef.current
    const content = contentRef.current
    const list = listRef.current
    if (!el || !content || !list || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      if (stickRef.current) el.scrollTop = el.scrollHeight
    })
    observer.observe(content)
    observer.observe(list)
    return () => observer.disconnect()
  }, [])

  // While a reply grows, follow it if the reader is at the bottom; leave them be if they scrolled up.
  const last = items.at(-1)?.exchange
  const growing = last?.pending ? last.response.length : 0
  useEffect(() => {
    const el = scrollRef.current
    if (!el || !growing) return
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX) el.scrollTop = el.scrollHeight
  }, [growing])

  const virtualItems = virtualizer.getVirtualItems()
  return (
    <div
      ref={scrollRef}
      onScroll={onScroll}
      data-testid="conversation"
      className="h-full min-h-0 overflow-y-auto [overflow-anchor:none]"
    >
      <div
        ref={listRef}
        className="relative mx-auto w-full max-w-5xl px-4"
        style={{ height: virtualizer.getTotalSize() }}
      >
        <div
          ref={contentRef}
          className="absolute inset-x-4 top-0"
          style={{ transform: `translateY(${virtualItems[0]?.start ?? 0}px)` }}
        >
          {virtualItems.map((row) => {
            const item = items[row.index]
            if (!item) return null
            return (
              <div
                key={row.key}
                data-index={row.index}
                data-message-id={item.exchange.id ?? undefined}
                data-focused={item.exchange.id === marked || undefined}
                ref={virtualizer.measureElement}
                className={cn(
                  'rounded-lg transition-shadow',
                  item.exchange.id === marked && 'ring-2 ring-primary/60',
                )}
              >
                <Exchange exchange={item.exchange} />
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}
