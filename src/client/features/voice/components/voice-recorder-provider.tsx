// Holds the recording above the chat's layout switch (panels from 1024 px, one column below): the
// composer under it is mounted again when the layout changes, and the recording must go on.
// Leaving the page ends it; so does the session's end here, turning the microphone off.
import { type ReactNode, useEffect } from 'react'
import { forgetOnSessionEnd } from '#client/app/api/get-user.ts'
import { useRecorderSession } from '../hooks/use-recorder-session.ts'
import { VoiceRecorderContext } from '../hooks/use-voice-recorder.ts'

export function VoiceRecorderProvider({ children }: { children: ReactNode }) {
  const recorder = useRecorderSession()
  const { forget } = recorder
  useEffect(() => forgetOnSessionEnd(forget), [forget])
  return <VoiceRecorderContext.Provider value={recorder}>{children}</VoiceRecorderContext.Provider>
}
