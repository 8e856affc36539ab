// The file going with the next message: its name and size with a remove button, or, while it
// uploads, how far along it is. A recording that could not be transcribed shows its note.
import FileText from 'lucide-react/icons/file-text'
import ImageIcon from 'lucide-react/icons/image'
import Mic from 'lucide-react/icons/mic'
import X from 'lucide-react/icons/x'
import { setDraftFile, useAttachmentDraft } from '#client/app/hooks/use-attachment-draft.ts'
import { formatFileSize, kindOfFile } from '#client/lib/file-kinds.ts'
import { formatDuration } from '#contract/recording.ts'
import { useObjectUrl } from '../hooks/use-object-url.ts'

const icons = { image: ImageIcon, document: FileText, audio: Mic }

/** An image shows itself (a pasted screenshot has no telling name); other files their kind. */
function ChipPreview({ file }: { file: File }) {
  const kind = kindOfFile(file)
  const url = useObjectUrl(kind === 'image' ? file : null)
  if (url)
    return (
      <img
        src={url}
        alt=""
        data-testid="attachment-thumbnail"
        className="size-8 shrink-0 rounded object-cover"
      />
    )
  const Icon = icons[kind]
  return <Icon className="size-4 shrink-0 text-primary" aria-hidden="true" />
}

export function AttachmentChip() {
  const { draft, upload } = useAttachmentDraft()
  if (upload) {
    const percent = Math.round(upload.fraction * 100)
    return (
      <div className="mx-3 mt-2 inline-flex max-w-[calc(100%-1.5rem)] items-center gap-2 rounded-lg border bg-muted/40 px-3 py-1.5 text-xs">
        <span className="shrink-0 text-muted-foreground">Uploading</span>
        <span className="min-w-0 truncate font-medium">{upload.name}</span>
        <span className="shrink-0 text-muted-foreground">{formatFileSize(upload.size)}</span>
        <div
          role="progressbar"
          aria-label={`Uploading ${upload.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-1.5 w-24 shrink-0 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
        </div>
        <span className="shrink-0 tabular-nums text-muted-foreground">{percent}%</span>
      </div>
    )
  }
  if (!draft) return null
  const { file, recordedSeconds } = draft
  return (
    <div
      data-testid="attachment-chip"
      className="mx-3 mt-2 inline-flex max-w-[calc(100%-1.5rem)] items-center gap-2 rounded-lg border bg-muted/40 py-1 pl-3 pr-1 text-xs"
    >
      <ChipPreview file={file} />
      {recordedSeconds !== undefined ? (
        <span className="min-w-0">
          Audio recorded ({formatDuration(recordedSeconds)}) - Press Enter to send
        </span>
      ) : (
        <>
          <span className="min-w-0 truncate font-medium">{file.name}</span>
          <span className="shrink-0 text-muted-foreground">{formatFileSize(file.size)}</span>
        </>
      )}
      <button
        type="button"
        aria-label={`Remove ${file.name}`}
        onClick={() => setDraftFile(null)}
        className="flex size-6 shrink-0 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      >
        <X className="size-3.5" aria-hidden="true" />
      </button>
    </div>
  )
}
