import type { ReactNode } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { errorText } from '#client/lib/api.ts'

interface QueryLike<T> {
  isError: boolean
  error: unknown
  data: T | undefined
}

/**
 * A tab's list or form once its query has answered: a spinner while it loads, the error said
 * plainly, a line when there is nothing to show, else what `children` draws.
 */
export function QueryState<T>({
  query,
  loading,
  failed,
  empty,
  children,
}: {
  query: QueryLike<T>
  /** The spinner's label. */
  loading: string
  /** Said when the server's answer has no message of its own. */
  failed: string
  /** Shown instead of `children` when set (the answer holds nothing). */
  empty?: string | false
  children: (data: T) => ReactNode
}) {
  if (query.isError)
    return (
      <p role="alert" className="text-sm text-red-400">
        {errorText(query.error, failed)}
      </p>
    )
  if (query.data === undefined) return <Spinner label={loading} />
  if (empty) return <p className="text-sm text-muted-foreground">{empty}</p>
  return children(query.data)
}

/** The next page of a list, while the server has more. */
export function ShowMore({
  query,
  label,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }
  label: string
}) {
  if (!query.hasNextPage) return null
  return (
    <Button
      variant="outline"
      className="justify-self-start"
      disabled={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
    >
      {query.isFetchingNextPage ? 'Loading...' : label}
    </Button>
  )
}
