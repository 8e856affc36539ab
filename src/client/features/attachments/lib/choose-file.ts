import { setDraftFile } from '#client/app/hooks/use-attachment-draft.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { overLimitMessage } from '#client/lib/file-kinds.ts'

/** Attaches a picked or dropped file to the next message, unless it is over its size limit. */
export function chooseFile(file: File): boolean {
  const tooLarge = overLimitMessage(file)
  if (tooLarge) {
    toast({ title: 'File too large', description: tooLarge, variant: 'destructive' })
    return false
  }
  setDraftFile({ file })
  return true
}
