// One exchange (spec section 2): the user's bubble on the right (with Edit), any attachment,
// then the reply with a left border coloured by model and its footer of actions and figures.
import FileText from 'lucide-react/icons/file-text'
import Pencil from 'lucide-react/icons/pencil'
import { memo, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { Textarea } from '#client/components/ui/textarea.tsx'
import { cn } from '#client/lib/cn.ts'
import { documentTypeLabel } from '#client/lib/file-kinds.ts'
import { isComposing } from '#client/lib/keyboard.ts'
import type { ChatWait } from '#contract/chat-events.ts'
import type { Message } from '#contract/messages.ts'
import { borderClassFor } from '../lib/chat-mode.ts'
import { useExchangeActions } from './exchange-actions.tsx'
import { Markdown } from './markdown.tsx'
import { actionButtonClass, ReplyFooter } from './reply-footer.tsx'
import { ReplySources, ToolSteps } from './reply-lookups.tsx'
import { ReplySources as KnowledgeSources } from './reply-sources.tsx'

export type ExchangeView = Pick<
  Message,
  | 'content'
  | 'response'
  | 'chatModel'
  | 'mediaUrl'
  | 'mediaType'
  | 'mediaName'
  | 'mediaMime'
  | 'status'
  | 'errorMessage'
  | 'createdAt'
  | 'completedAt'
  | 'co2Impact'
  | 'modelName'
  | 'versionIds'
  | 'sources'
  | 'toolSteps'
  | 'knowledge'
> & {
  /**
   * The server id; null while the send has not been stored yet, and on a shared conversation
   * (read-only: no actions, which need one).
   */
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

/** 'Document attached' (spec 8), with the file's name and type under it when they are known. */
function DocumentCard({ name, mime }: { name: string | null; mime: string | null }) {
  const label = documentTypeLabel(mime, name)
  return (
    <>
      <FileText className="size-4 shrink-0 text-primary" aria-hidden="true" />
      <span className="flex min-w-0 flex-col">
        <span>Document attached</span>
        {(name || label) && (
          <span data-testid="document-details" className="flex min-w-0 gap-1 text-xs text-muted-foreground">
            {name && (
              <span className="truncate" title={name}>
                {name}
              </span>
            )}
            {name && label && <span aria-hidden="true">·</span>}
            {label && <span className="shrink-0">{label}</span>}
          </span>
        )}
      </span>
    </>
  )
}

function Attachment({
  url,
  type,
  name,
  mime,
}: {
  url: string | null
  type: 'image' | 'document'
  name: string | null
  mime: string | null
}) {
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
          className="flex max-w-72 items-center gap-2 rounded-lg border bg-card px-3 py-2 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
        >
          <DocumentCard name={name} mime={mime} />
        </a>
      ) : (
        <div className="flex max-w-72 items-center gap-2 rounded-lg border bg-card px-3 py-2 text-sm">
          <DocumentCard name={name} mime={mime} />
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

/** The sent text, edited in place: saving sends it as a new version of this turn. */
function EditBox({
  initial,
  onCancel,
  onSave,
}: {
  initial: string
  onCancel: () => void
  onSave: (text: string) => void
}) {
  const [text, setText] = useState(initial)
  const trimmed = text.trim()
  return (
    <form
      className="flex w-full max-w-[80%] flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault()
        if (trimmed) onSave(trimmed)
      }}
    >
      <Textarea
        aria-label="Edit your message"
        value={text}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          // Keys that pick or drop an IME candidate neither close the box nor send the edit.
          if (isComposing(e)) return
          if (e.key === 'Escape') onCancel()
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault()
            if (trimmed) onSave(trimmed)
          }
        }}
        className="min-h-20"
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!trimmed || trimmed === initial.trim()}>
          Send
        </Button>
      </div>
    </form>
  )
}

export const Exchange = memo(function Exchange({ exchange }: { exchange: ExchangeView }) {
  const { content, response, chatModel, pending, status } = exchange
  const actions = useExchangeActions()
  const [editing, setEditing] = useState(false)
  const thinking = pending && !response
  const generating = pending || status === 'streaming'
  const id = exchange.id
  return (
    <article className="flex flex-col gap-3 py-4" data-testid="exchange">
      {editing && id && actions ? (
        <div className="flex justify-end">
          <EditBox
            initial={content}
            onCancel={() => setEditing(false)}
            onSave={(text) => {
              setEditing(false)
              actions.edit(
                {
                  id,
                  content,
                  mediaUrl: exchange.mediaUrl,
                  mediaType: exchange.mediaType,
                  mediaName: exchange.mediaName,
                  mediaMime: exchange.mediaMime,
                },
                text,
              )
            }}
          />
        </div>
      ) : (
        content && (
          <div className="group/user flex flex-col items-end gap-1">
            <div
              data-testid="user-message"
              className="max-w-[80%] rounded-2xl rounded-br-sm bg-secondary px-4 py-2.5 text-secondary-foreground"
            >
              <Markdown text={content} breaks />
            </div>
            {id && actions && !generating && (
              <button
                type="button"
                aria-label="Edit message"
                title="Edit message"
                disabled={actions.busy}
                onClick={() => setEditing(true)}
                className={cn(
                  actionButtonClass,
                  'opacity-100 sm:opacity-0 sm:focus-visible:opacity-100 sm:group-hover/user:opacity-100',
                )}
              >
                <Pencil className="size-3.5" aria-hidden="true" /> Edit
              </button>
            )}
          </div>
        )
      )}
      {exchange.mediaType && (
        <div className="flex justify-end">
          <Attachment
            url={exchange.mediaUrl}
            type={exchange.mediaType}
            name={exchange.mediaName ?? null}
            mime={exchange.mediaMime ?? null}
          />
        </div>
      )}
      <div
        data-testid="assistant-reply"
        data-model={chatModel}
        aria-busy={generating}
        className={cn('group/reply relative border-l-4 pl-4', borderClassFor(chatModel))}
      >
        <ToolSteps steps={exchange.toolSteps ?? []} />
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
        <ReplySources sources={exchange.sources ?? []} />
        {!generating && exchange.knowledge?.passages.length ? (
          <KnowledgeSources knowledge={exchange.knowledge} />
        ) : null}
        {/* A read-only copy (no actions) shows its footer's figures without an id. */}
        {(id || !actions) && !generating && <ReplyFooter exchange={exchange} />}
      </div>
    </article>
  )
})
