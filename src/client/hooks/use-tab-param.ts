import { useLocation, useSearch } from 'wouter'

/**
 * The open tab of a page of tabs, kept in the address (?tab=) so a reload or a shared link opens
 * it again; an unknown name opens the first tab, and `moved` maps names folded into another tab.
 */
export function useTabParam<T extends string>(
  tabs: readonly T[],
  moved: Partial<Record<string, T>> = {},
): [T, (tab: string) => void] {
  const search = useSearch()
  const [location, navigate] = useLocation()
  const asked = new URLSearchParams(search).get('tab') ?? ''
  const requested = moved[asked] ?? asked
  const tab = tabs.find((t) => t === requested) ?? (tabs[0] as T)
  return [tab, (next) => navigate(`${location}?tab=${next}`, { replace: true })]
}
