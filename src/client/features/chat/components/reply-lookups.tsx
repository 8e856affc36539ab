// What a reply looked up (decision 065): its tool calls as collapsible steps (name, arguments,
// result) and its sources as numbered citations (title, host, link), in the order it cites them.
// A call the operator marked as needing approval shows open, with Approve and Deny, until it
// expires (decision 070).
import ChevronRight from 'lucide-react/icons/chevron-right'
import Wrench from 'lucide-react/icons/wrench'
import { useEffect, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { APPROVAL_MINUTES, type Source, type ToolStep } from '#contract/tools.ts'
import { useAnswerApproval } from '../api/answer-approval.ts'

const STATUS_TEXT: Record<ToolStep['status'], string> = {
  running: 'running…',
  done: 'done',
  failed: 'failed',
  'awaiting-approval': 'waiting for your approval',
  refused: 'refused',
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

function argsText(args: unknown): string {
  if (args === undefined || args === null) return ''
  const text = JSON.stringify(args, null, 2)
  return text === '{}' ? '' : text
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

/** True once `iso` has passed; re-rendered when it does. */
function usePassed(iso: string | undefined): boolean {
  const [passed, setPassed] = useState(() => (iso ? Date.parse(iso) <= Date.now() : false))
  useEffect(() => {
    if (!iso) return
    const left = Date.parse(iso) - Date.now()
    setPassed(left <= 0)
    if (left <= 0) return
    const timer = setTimeout(() => setPassed(true), Math.min(left, 2 ** 31 - 1))
    return () => clearTimeout(timer)
  }, [iso])
  return passed
}

/** Approve or Deny for a call that waits, with how long it waits; "not approved in time" after. */
function ApprovalPrompt({ step }: { step: ToolStep & { approval: NonNullable<ToolStep['approval']> } }) {
  const answer = useAnswerApproval()
  const passed = usePassed(step.approval.expiresAt)
  if (passed)
    return (
      <p className="text-muted-foreground" data-testid="tool-approval-expired">
        Not approved within {APPROVAL_MINUTES} minutes: the tool did not run.
      </p>
    )
  const send = (approved: boolean) => answer.mutate({ messageId: step.approval.messageId, approved })
  return (
    <div className="flex flex-wrap items-center gap-2 pt-1" data-testid="tool-approval">
      <p className="basis-full text-foreground">
        Run <span className="font-mono">{step.name}</span> with these arguments? It waits for your answer
        until {timeOf(step.approval.expiresAt)} ({APPROVAL_MINUTES} minutes).
      </p>
      <Button size="sm" disabled={answer.isPending} onClick={() => send(true)}>
        Approve
      </Button>
      <Button size="sm" variant="outline" disabled={answer.isPending} onClick={() => send(false)}>
        Deny
      </Button>
    </div>
  )
}

export function ToolSteps({ steps }: { steps: ToolStep[] }) {
  if (steps.length === 0) return null
  return (
    <ol className="mb-2 flex flex-col gap-1" aria-label="Tool steps">
      {steps.map((step) => (
        <li key={step.id} data-testid="tool-step" data-status={step.status}>
          <details
            className="group rounded-md border bg-muted/40 text-xs"
            open={step.status === 'awaiting-approval' || undefined}
          >
            <summary className="flex cursor-pointer list-none items-center gap-1.5 px-2 py-1 text-muted-foreground">
              <ChevronRight className="size-3 transition-transform group-open:rotate-90" aria-hidden="true" />
              <Wrench className="size-3" aria-hidden="true" />
              <span className="font-mono text-foreground">{step.name}</span>
              <span>· {STATUS_TEXT[step.status]}</span>
            </summary>
            <div className="flex flex-col gap-1 border-t px-2 py-1.5">
              {argsText(step.args) && (
                <pre className="whitespace-pre-wrap break-words font-mono" data-testid="tool-step-args">
                  {argsText(step.args)}
                </pre>
              )}
              {step.result !== undefined && (
                <pre
                  className="max-h-48 overflow-auto whitespace-pre-wrap break-words font-mono text-muted-foreground"
                  data-testid="tool-step-result"
                >
                  {step.result}
                </pre>
              )}
              {step.status === 'awaiting-approval' && step.approval && (
                <ApprovalPrompt step={{ ...step, approval: step.approval }} />
              )}
            </div>
          </details>
        </li>
      ))}
    </ol>
  )
}

export function ReplySources({ sources }: { sources: Source[] }) {
  if (sources.length === 0) return null
  return (
    <nav aria-label="Sources" className="mt-3 text-xs">
      <p className="mb-1 font-medium text-muted-foreground">Sources</p>
      <ol className="flex flex-col gap-0.5">
        {sources.map((s, i) => {
          // Only web pages are links: a source is never a script or a file on this machine.
          const href = /^https?:\/\//i.test(s.url) ? s.url : null
          return (
            <li key={s.url} data-testid="reply-source" className="flex min-w-0 gap-1.5">
              <span className="shrink-0 text-muted-foreground">[{i + 1}]</span>
              {href ? (
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="min-w-0 truncate text-primary underline-offset-2 hover:underline"
                  title={s.snippet ?? s.url}
                >
                  {s.title || s.url}
                </a>
              ) : (
                <span className="min-w-0 truncate">{s.title || s.url}</span>
              )}
              <span className="shrink-0 text-muted-foreground">· {hostOf(s.url)}</span>
            </li>
          )
        })}
      </ol>
    </nav>
  )
}
