// What shows when a page throws instead of rendering, rather than an empty screen: most often a
// tab left open across a deploy asking for a chunk that is gone (reload-for-new-code.ts).
import { Component, type ReactNode } from 'react'
import { isCodeLoadError, reloadForNewCode } from './reload-for-new-code.ts'

type Props = {
  children: ReactNode
  /** Shows nothing on failure (a part of the page, like the toasts), not the full-page message. */
  quiet?: boolean
  /** A new value (the address) tries the children again: another page may well work. */
  resetKey?: unknown
}
// 'reloading': the new version is on its way; 'updated': that was tried a moment ago, so the
// person is asked; 'broken': anything else that threw.
type State = { failed: null | 'reloading' | 'updated' | 'broken' }

export class LoadFailureBoundary extends Component<Props, State> {
  override state: State = { failed: null }

  static getDerivedStateFromError(error: unknown): State {
    return { failed: isCodeLoadError(error) ? 'reloading' : 'broken' }
  }

  // The reload is a side effect, so it is started here, once the failure is committed.
  override componentDidCatch(error: unknown) {
    if (isCodeLoadError(error) && !reloadForNewCode()) this.setState({ failed: 'updated' })
  }

  override componentDidUpdate(prev: Props) {
    if (this.state.failed && this.state.failed !== 'reloading' && prev.resetKey !== this.props.resetKey)
      this.setState({ failed: null })
  }

  override render() {
    const { failed } = this.state
    if (!failed) return this.props.children
    if (this.props.quiet) return null
    if (failed === 'reloading')
      return (
        <p role="status" className="flex min-h-dvh items-center justify-center text-muted-foreground">
          Loading the new version of Loris…
        </p>
      )
    return (
      <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
        <p role="alert" className="text-lg">
          {failed === 'updated' ? 'Loris was updated.' : 'Something went wrong.'}
        </p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="inline-flex h-10 items-center justify-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground hover:bg-primary/90 focus-visible:outline-2 focus-visible:outline-ring"
        >
          Reload
        </button>
      </main>
    )
  }
}
