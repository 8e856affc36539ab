// One exchange (spec section 2): the user's bubble on the right, any attachment, then the reply
// with a left border coloured by model and its '@' button.
import { AtSign, FileText } from 'lucide-react'
import { memo, useState } from 'react'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { Tooltip, TooltipContent, TooltipTrigger } from '#client/components/ui/tooltip.tsx'
import { cn } from '#client/lib/cn.ts'
import type { ChatWait } from '#contract/chat-events.ts'
import type { Message } from '#contract/messages.ts'
import { borderClassFor } from '../lib/chat-mode.ts'
import { Markdown } from './markdown.tsx'

export type ExchangeView = Pick<
  Message,
  'content' | 'response' | 'chatModel' | 'mediaUrl' | 'mediaType' | 'status' | 'errorMessage'
> & {
  /** The server id; null while the send has not been stored yet. */
  id: string | null
  /** True while this reply is arriving. */
  pending: boolean
  /** Why a pending reply has not started (eco model: in line, or being prepared). */
  wait?: ChatWait | null
}

/** What a reply that has not started says: its place in line, or the eco model's preparation. */
export function waitText(wait: ChatWait | null | undefined): string {
  if (!wait) return 'Thinking...'
  if (wait.kind === 'queued')
    return wait.position === 1
      ? 'Waiting in line: your reply is next...'
      : `Waiting in line: ${wait.position - 1} replies ahead of yours...`
  return wait.percent === null
    ? 'The Loris eco model is being prepared on this server...'
    : `The Loris eco model is being prepared on this server (${wait.percent}%)...`
}

function Attachment({ url, type }: { url: string | null; type: 'image' | 'document' }) {
  // Spec 8: an image that fails to load is hidden (and logged).
  const [failedUrl, setFailedUrl] = useState<string | null>(null)
  return (
    <div className="flex flex-col items-end gap-1">
      <p className="text-xs text-muted-foreground">
        {type === 'image' ? 'Shared an image' : 'Shared a document'}
      </p>
      {type === 'image' ? (
        url &&
        url !== failedUrl && (
          <img
            src={url}
            alt="Shared by you"
            className="max-h-[400px] max-w-full rounded-lg border object-contain"
            onError={() => {
              console.warn('Image failed to load and was hidden:', url)
              setFailedUrl(url)
            }}
          />
        )
      ) : url && !url.startsWith('blob:') ? (
        // The stored file downloads (GET /api/uploads/:id answers as an attachment).
        <a
          href={url}
          title="Download the document"
          className="flex items-center gap-2 rounded-lg border bg-card px-3 py-2 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
        >
          <FileText className="size-4 text-primary" aria-hidden="true" />
          Document attached
        </a>
      ) : (
        <div className="flex items-center gap-2 rounded-lg border bg-card px-3 py-2 text-sm">
          <FileText className="size-4 text-primary" aria-hidden="true" />
          Document attached
        </div>
      )}
    </div>
  )
}

function ReplyNote({ status, errorMessage }: Pick<Message, 'status' | 'errorMessage'>) {
  if (status === 'interrupted')
    return <p className="mt-2 text-xs text-muted-foreground">{errorMessage ?? 'Reply stopped'}</p>
  if (status === 'failed')
    return (
      <p className="text-sm text-muted-foreground">No reply: {errorMessage ?? 'the model did not answer'}</p>
    )
  return null
}

export const Exchange = memo(function Exchange({
  exchange,
  onNewThread,
  creatingThread,
}: {
  exchange: ExchangeView
  /** Absent on a read-only page (a shared conversation): no '@' button. */
  onNewThread?: (messageId: string) => void
  creatingThread?: boolean
}) {
  const { content, response, chatModel, pending, status } = exchange
  const thinking = pending && !response
  const generating = pending || status === 'streaming'
  return (
    <article className="flex flex-col gap-3 py-4" data-testid="exchange">
      {content && (
        <div className="flex justify-end">
          <div
            data-testid="user-message"
            className="max-w-[80%] rounded-2xl rounded-br-sm bg-secondary px-4 py-2.5 text-secondary-foreground"
          >
            <Markdown text={content} />
          </div>
        </div>
      )}
      {exchange.mediaType && (
        <div className="flex justify-end">
          <Attachment url={exchange.mediaUrl} type={exchange.mediaType} />
        </div>
      )}
      <div
        data-testid="assistant-reply"
        data-model={chatModel}
        aria-busy={generating}
        className={cn('group/reply relative border-l-4 pl-4 pr-10', borderClassFor(chatModel))}
      >
        {thinking ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <Spinner className="size-4" label="Reply pending" /> {waitText(exchange.wait)}
          </p>
        ) : status === 'failed' && !response ? (
          <ReplyNote status={status} errorMessage={exchange.errorMessage} />
        ) : (
          <>
            <Markdown text={response} />
            {!pending && <ReplyNote status={status} errorMessage={exchange.errorMessage} />}
          </>
        )}
        {exchange.id && !generating && onNewThread && (
          <Tooltip>
            <TooltipTrigger asChild>
              <button
                type="button"
                aria-label="Start new thread from this message"
                disabled={creatingThread}
                onClick={() => exchange.id && onNewThread(exchange.id)}
                className="absolute right-0 top-0 flex size-7 items-center justify-center rounded-full border bg-background text-muted-foreground transition-colors hover:bg-accent hover:text-foreground disabled:opacity-50"
              >
                <AtSign className="size-3.5" aria-hidden="true" />
              </button>
            </TooltipTrigger>
            <TooltipContent>Start new thread from this message</TooltipContent>
          </Tooltip>
        )}
      </div>
    </article>
  )
})
