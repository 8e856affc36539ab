// The composer's handle on the recorder, which VoiceRecorderProvider owns above the layout switch.
import { createContext, useContext, useEffect } from 'react'
import type { RecorderSession } from './use-recorder-session.ts'

export const VoiceRecorderContext = createContext<RecorderSession | null>(null)

/** The recorder; the recognised words go to `onText` of the composer mounted last. */
export function useVoiceRecorder({ onText }: { onText: (text: string) => void }) {
  const recorder = useContext(VoiceRecorderContext)
  if (!recorder) throw new Error('useVoiceRecorder needs a VoiceRecorderProvider above it')
  const { listen } = recorder
  useEffect(() => {
    listen(onText)
  })
  return recorder
}

export type VoiceRecorder = RecorderSession
