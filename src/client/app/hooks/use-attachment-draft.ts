// The file chosen for the next message, and the upload in progress. In memory only (spec 3: a
// visitor's chosen file survives sign-in but never a reload), shared by the composer, the drop
// zone, the voice recorder (a recording that could not be transcribed) and the send.
import { useSyncExternalStore } from 'react'
import { forgetOnSessionEnd } from '#client/app/api/get-user.ts'

export interface DraftFile {
  file: File
  /** A voice recording's length in seconds, for its note. */
  recordedSeconds?: number
}

export interface UploadProgress {
  name: string
  size: number
  /** 0 to 1. */
  fraction: number
}

interface State {
  draft: DraftFile | null
  upload: UploadProgress | null
}

let state: State = { draft: null, upload: null }
const listeners = new Set<() => void>()
const emit = (next: Partial<State>) => {
  state = { ...state, ...next }
  for (const l of listeners) l()
}

export const setDraftFile = (draft: DraftFile | null) => emit({ draft })
export const getDraftFile = (): File | null => state.draft?.file ?? null
export const setUploadProgress = (upload: UploadProgress | null) => emit({ upload })
forgetOnSessionEnd(() => emit({ draft: null, upload: null }))

export function useAttachmentDraft(): State {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => state,
  )
}
