// Settings > Actions > Download my data (GDPR article 20): the whole account as a zip.
import Download from 'lucide-react/icons/download'
import { useEffect, useRef, useState } from 'react'
import { forgetOnSessionEnd } from '#client/app/api/get-user.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { toast } from '#client/hooks/use-toast.ts'
import { errorText } from '#client/lib/api.ts'
import { downloadExport, formatBytes } from '../lib/download-export.ts'

type State =
  | { kind: 'idle' }
  | { kind: 'working'; bytes: number }
  | { kind: 'done'; bytes: number; name: string }

export function DownloadDataCard() {
  const [state, setState] = useState<State>({ kind: 'idle' })
  const running = useRef<AbortController | null>(null)
  // The download stops with the page or with the person's session here (Sign Out): on a shared
  // computer, the zip of their whole account must not land in Downloads after they have left.
  useEffect(() => {
    const stop = () => running.current?.abort()
    const unlisten = forgetOnSessionEnd(stop)
    return () => {
      unlisten()
      stop()
    }
  }, [])
  const start = async () => {
    const controller = new AbortController()
    running.current = controller
    setState({ kind: 'working', bytes: 0 })
    try {
      const { bytes, name } = await downloadExport(
        (b) => setState({ kind: 'working', bytes: b }),
        controller.signal,
      )
      setState({ kind: 'done', bytes, name })
    } catch (err) {
      setState({ kind: 'idle' })
      // Stopped on purpose (signed out, page left): nothing went wrong to tell anyone about.
      if (controller.signal.aborted) return
      toast({
        title: 'Error',
        description: errorText(err, 'Your data could not be exported'),
        variant: 'destructive',
      })
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Download my data</CardTitle>
        <CardDescription>
          A zip of every conversation (as JSON and Markdown), the files you sent and your account record.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-4">
        <Button variant="outline" onClick={() => void start()} disabled={state.kind === 'working'}>
          <Download aria-hidden="true" /> Download my data
        </Button>
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          {state.kind === 'working' && (
            <>
              <Spinner className="size-4" label="Preparing" />
              {state.bytes === 0
                ? 'Preparing your data…'
                : `Preparing your data… ${formatBytes(state.bytes)}`}
            </>
          )}
          {state.kind === 'done' && `Downloaded ${state.name} (${formatBytes(state.bytes)})`}
        </p>
      </CardContent>
    </Card>
  )
}
