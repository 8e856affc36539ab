// Settings > Actions > Import conversations: a ChatGPT export or a Loris export.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import Upload from 'lucide-react/icons/upload'
import { useRef } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { ImportReport } from '#contract/import.ts'

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

export function ImportCard() {
  const input = useRef<HTMLInputElement>(null)
  const queryClient = useQueryClient()
  const importFile = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData()
      form.set('file', file)
      return apiJson<ImportReport>('POST', '/api/import', form)
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/threads'] }),
  })
  const report = importFile.data
  return (
    <Card>
      <CardHeader>
        <CardTitle>Import conversations</CardTitle>
        <CardDescription>
          Bring your history from ChatGPT (its data export: the zip or conversations.json) or from a Loris
          export. Importing the same file twice adds nothing new.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <input
          ref={input}
          type="file"
          accept=".zip,.json,application/zip,application/json"
          className="hidden"
          aria-label="Conversations file"
          onChange={(e) => {
            const file = e.target.files?.[0]
            if (file) importFile.mutate(file)
            e.target.value = ''
          }}
        />
        <div className="flex items-center gap-3">
          <Button variant="outline" onClick={() => input.current?.click()} disabled={importFile.isPending}>
            <Upload aria-hidden="true" /> Import conversations
          </Button>
          {importFile.isPending && (
            <span role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner className="size-4" label="Importing" /> Importing…
            </span>
          )}
        </div>
        {importFile.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorText(importFile.error, 'The file could not be imported')}
          </p>
        )}
        {report && (
          <div role="status" data-testid="import-report" className="rounded-md border p-3 text-sm">
            <p className="font-medium">
              Imported {plural(report.threadsImported, 'conversation')} with{' '}
              {plural(report.messagesImported, 'message')}.
            </p>
            {report.notes.map((note) => (
              <p key={note} className="mt-1 text-muted-foreground">
                {note}
              </p>
            ))}
            {report.skipped.length > 0 && (
              <details className="mt-2">
                <summary className="cursor-pointer">
                  Skipped {plural(report.skippedCount, 'conversation')}
                </summary>
                <ul className="mt-1 list-disc pl-5 text-muted-foreground">
                  {report.skipped.map((s, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: titles may repeat
                    <li key={i}>
                      {s.title}: {s.reason}
                    </li>
                  ))}
                </ul>
                {report.skippedCount > report.skipped.length && (
                  <p className="mt-1 text-muted-foreground">
                    and {report.skippedCount - report.skipped.length} more
                  </p>
                )}
              </details>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  )
}
