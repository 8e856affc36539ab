import Check from 'lucide-react/icons/check'
import ChevronsUpDown from 'lucide-react/icons/chevrons-up-down'
import Search from 'lucide-react/icons/search'
import { type KeyboardEvent, type ReactNode, useId, useMemo, useRef, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Popover, PopoverContent, PopoverTrigger } from '#client/components/ui/popover.tsx'
import { cn } from '#client/lib/cn.ts'

// A searchable, grouped list in a popover (the WAI-ARIA combobox pattern with a listbox popup):
// focus stays in the search box while the arrow keys move the active option, Enter picks it,
// Escape closes and gives focus back to the trigger. Options are plain data so a long list
// (hundreds) stays cheap: filtering is a substring test per option.

export interface ComboboxOption {
  value: string
  label: string
  /** Shown after the label, smaller; searched too. */
  hint?: string
  /** Already chosen: listed with a tick, not selectable again. */
  disabled?: boolean
}

export interface ComboboxGroup {
  label: string
  options: readonly ComboboxOption[]
}

export function Combobox({
  groups,
  onSelect,
  trigger,
  searchLabel,
  placeholder,
  emptyText = 'Nothing matches',
  disabled,
  className,
}: {
  groups: readonly ComboboxGroup[]
  onSelect: (value: string) => void
  /** The trigger button's content (its accessible name). */
  trigger: ReactNode
  searchLabel: string
  placeholder?: string
  emptyText?: string
  disabled?: boolean
  className?: string
}) {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const [active, setActive] = useState<string | null>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const baseId = useId()
  const listId = `${baseId}-list`
  const optionId = (value: string) => `${baseId}-opt-${encodeURIComponent(value)}`

  const visible = useMemo(() => filterGroups(groups, query), [groups, query])
  const selectable = useMemo(
    () => visible.flatMap((g) => g.options.filter((o) => !o.disabled).map((o) => o.value)),
    [visible],
  )
  // The active option follows the list: the first match whenever the previous one left it.
  const current = active !== null && selectable.includes(active) ? active : (selectable[0] ?? null)

  function move(to: string | null) {
    setActive(to)
    if (to === null) return
    const el = listRef.current?.querySelector(`[id="${CSS.escape(optionId(to))}"]`)
    el?.scrollIntoView({ block: 'nearest' })
  }

  function pick(value: string) {
    onSelect(value)
    setOpen(false)
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (selectable.length === 0) return
    const i = current === null ? -1 : selectable.indexOf(current)
    const last = selectable.length - 1
    const to: Record<string, number | undefined> = {
      ArrowDown: i >= last ? 0 : i + 1,
      ArrowUp: i <= 0 ? last : i - 1,
      PageDown: Math.min(last, i + 10),
      PageUp: Math.max(0, i - 10),
    }
    if (e.key in to) {
      e.preventDefault()
      move(selectable[to[e.key] ?? 0] ?? null)
    } else if (e.key === 'Enter' && current !== null) {
      e.preventDefault()
      pick(current)
    }
  }

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (next) {
          setQuery('')
          setActive(null)
        }
      }}
    >
      <PopoverTrigger asChild>
        <Button
          type="button"
          variant="outline"
          disabled={disabled}
          aria-haspopup="listbox"
          className={cn('justify-between gap-2', className)}
        >
          {trigger}
          <ChevronsUpDown className="size-4 opacity-60" aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-[min(26rem,calc(100vw-2rem))]">
        <div className="flex items-center gap-2 border-b px-3">
          <Search className="size-4 shrink-0 opacity-60" aria-hidden="true" />
          <input
            role="combobox"
            aria-label={searchLabel}
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={current === null ? undefined : optionId(current)}
            placeholder={placeholder}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onKeyDown}
            autoComplete="off"
            spellCheck={false}
            className="h-10 w-full bg-transparent text-sm outline-none placeholder:text-muted-foreground"
          />
        </div>
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label={searchLabel}
          className="max-h-72 overflow-y-auto p-1"
        >
          {visible.length === 0 ? (
            <p className="px-2 py-6 text-center text-sm text-muted-foreground" role="status">
              {emptyText}
            </p>
          ) : (
            visible.map((group) => {
              const groupId = `${baseId}-group-${encodeURIComponent(group.label)}`
              return (
                // biome-ignore lint/a11y/useSemanticElements: a group of options inside a listbox (WAI-ARIA); a fieldset is not allowed there
                <div key={group.label} role="group" aria-labelledby={groupId}>
                  <div id={groupId} className="px-2 pt-2 pb-1 text-xs font-medium text-muted-foreground">
                    {group.label}
                  </div>
                  {group.options.map((o) => (
                    // biome-ignore lint/a11y/useFocusableInteractive: aria-activedescendant pattern: focus stays in the search box, whose keys drive the options
                    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard picks through the search box (Enter), see onKeyDown
                    <div
                      key={o.value}
                      id={optionId(o.value)}
                      role="option"
                      aria-selected={o.value === current}
                      aria-disabled={o.disabled || undefined}
                      data-value={o.value}
                      // Keep focus in the search box: a click must not blur it before it picks.
                      onMouseDown={(e) => e.preventDefault()}
                      onMouseMove={() => !o.disabled && o.value !== current && setActive(o.value)}
                      onClick={() => !o.disabled && pick(o.value)}
                      className={cn(
                        'flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm',
                        o.value === current && 'bg-accent text-accent-foreground',
                        o.disabled && 'opacity-50',
                      )}
                    >
                      <Check
                        className={cn('size-4 shrink-0', o.disabled ? 'opacity-100' : 'opacity-0')}
                        aria-hidden="true"
                      />
                      <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{o.label}</span>
                      {o.hint ? (
                        <span className="ml-auto shrink-0 text-xs text-muted-foreground">{o.hint}</span>
                      ) : null}
                    </div>
                  ))}
                </div>
              )
            })
          )}
        </div>
      </PopoverContent>
    </Popover>
  )
}

/** Every word of the query must appear in the option's label, hint or group (case-insensitive). */
export function filterGroups(groups: readonly ComboboxGroup[], query: string): ComboboxGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...groups]
  return groups
    .map((g) => ({
      label: g.label,
      options: g.options.filter((o) => {
        const text = `${o.label} ${o.hint ?? ''} ${g.label}`.toLowerCase()
        return words.every((w) => text.includes(w))
      }),
    }))
    .filter((g) => g.options.length > 0)
}
