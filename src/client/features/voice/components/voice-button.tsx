// The composer's voice button (spec sections 2 and 4): record, then stop or cancel; while the
// words are being recognised, 'Transcribing audio...'. A recording kept after a failed
// transcription is cleared by this same button.
import Check from 'lucide-react/icons/check'
import Mic from 'lucide-react/icons/mic'
import Trash2 from 'lucide-react/icons/trash'
import X from 'lucide-react/icons/x'
import { useAppConfig } from '#client/app/api/get-config.ts'
import { useUser } from '#client/app/api/get-user.ts'
import { setDraftFile, useAttachmentDraft } from '#client/app/hooks/use-attachment-draft.ts'
import { setSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { formatDuration } from '#contract/recording.ts'
import type { VoiceRecorder } from '../hooks/use-voice-recorder.ts'

export function voicePlaceholder(voice: Pick<VoiceRecorder, 'state' | 'seconds'>): string | undefined {
  if (voice.state === 'recording') return `Recording... ${formatDuration(voice.seconds)}`
  if (voice.state === 'transcribing') return 'Transcribing audio...'
  return undefined
}

export function VoiceButton({ voice, disabled = false }: { voice: VoiceRecorder; disabled?: boolean }) {
  const { user } = useUser()
  const config = useAppConfig()
  const { draft } = useAttachmentDraft()

  if (voice.state === 'transcribing')
    return (
      <span role="status" className="flex items-center gap-2 px-2 text-xs text-muted-foreground">
        <Spinner className="size-4" label="Transcribing" /> Transcribing audio...
      </span>
    )
  if (voice.state === 'recording')
    return (
      <span className="flex items-center gap-1">
        <span
          className="flex items-center gap-1.5 px-1 text-xs tabular-nums text-destructive"
          aria-live="off"
        >
          <span className="size-2 animate-pulse rounded-full bg-destructive" aria-hidden="true" />
          {formatDuration(voice.seconds)}
        </span>
        <Button
          variant="ghost"
          size="icon"
          className="size-9"
          aria-label="Cancel recording"
          onClick={voice.cancel}
        >
          <X aria-hidden="true" />
        </Button>
        <Button
          variant="secondary"
          size="icon"
          className="size-9"
          aria-label="Stop recording"
          onClick={voice.stop}
        >
          <Check aria-hidden="true" />
        </Button>
      </span>
    )
  if (draft?.recordedSeconds !== undefined)
    return (
      <Button
        variant="ghost"
        size="icon"
        className="size-9"
        aria-label="Discard recording"
        onClick={() => setDraftFile(null)}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    )
  const unavailable = user && config && !config.transcription.available
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-9"
      aria-label="Record voice message"
      title={
        unavailable ? (config.transcription.reason ?? 'Voice input is not available') : 'Record voice message'
      }
      disabled={disabled || Boolean(unavailable)}
      onClick={() => {
        if (!user) setSignInDialogOpen(true)
        else void voice.start()
      }}
    >
      <Mic aria-hidden="true" />
    </Button>
  )
}
