// Voice input (spec section 4): idle → recording → transcribing. The microphone records webm
// with a timer ticking every second; Cancel discards, Stop transcribes. The words go to the
// composer that listens last; if transcription fails the recording stays attached to be sent as it is.
// Owned by VoiceRecorderProvider, above the chat's layout switch, so the composer can be mounted
// again (a tablet turned across 1024 px) without the recording being dropped.
import { useCallback, useEffect, useRef, useState } from 'react'
import { setDraftFile } from '#client/app/hooks/use-attachment-draft.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { errorText } from '#client/lib/api.ts'
import { MAX_RECORDING_SECONDS } from '#contract/recording.ts'
import { transcribeAudio } from '../api/transcribe.ts'

export type VoiceState = 'idle' | 'recording' | 'transcribing'

export const MICROPHONE_DENIED =
  'Could not access microphone. Please ensure microphone permissions are granted.'
const MIME = 'audio/webm'

interface Session {
  recorder: MediaRecorder
  stream: MediaStream
  chunks: Blob[]
  startedAt: number
  timer: ReturnType<typeof setInterval>
}

export function useRecorderSession() {
  const [state, setState] = useState<VoiceState>('idle')
  const [seconds, setSeconds] = useState(0)
  const session = useRef<Session | null>(null)
  // Between the click and the microphone's answer (a permission prompt can take seconds): a
  // second click must not open a second microphone, which nothing would ever turn off.
  const starting = useRef(false)
  const mounted = useRef(false)
  // Whose words a transcription brings: one that ends after the session did (sign-out) is dropped.
  const generation = useRef(0)
  // The composer shown now; kept when it unmounts, as its remount (or a return to the chat) writes
  // to the same composer text.
  const onText = useRef<(text: string) => void>(() => undefined)
  const listen = useCallback((handler: (text: string) => void) => {
    onText.current = handler
  }, [])

  const release = useCallback(() => {
    const s = session.current
    session.current = null
    if (!s) return
    clearInterval(s.timer)
    for (const track of s.stream.getTracks()) track.stop()
  }, [])
  // Leaving the page turns the microphone off.
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
      const s = session.current
      if (s && s.recorder.state !== 'inactive') s.recorder.stop()
      release()
    }
  }, [release])

  const transcribe = useCallback(async (file: File, recordedSeconds: number, mine: number) => {
    setState('transcribing')
    try {
      const words = await transcribeAudio(file)
      if (mine === generation.current) onText.current(words)
    } catch (err) {
      if (mine !== generation.current) return
      setDraftFile({ file, recordedSeconds })
      // The server's reason when it says more than the title (e.g. no speech was heard).
      const reason = errorText(err, '')
      toast({
        title: 'Transcription failed',
        description:
          reason && !reason.startsWith('Transcription failed')
            ? reason
            : 'The recording is kept: press Enter to send it as it is.',
        variant: 'destructive',
      })
    } finally {
      if (mine === generation.current) setState('idle')
    }
  }, [])

  const start = useCallback(async () => {
    if (session.current || starting.current) return
    starting.current = true
    const mine = generation.current
    let stream: MediaStream
    try {
      // Call processing (echo cancelling, noise suppression, gain control) is made for people
      // listening; it distorts words for speech recognisers (offline, 'ten meters' became
      // 'ten years'), which normalise the sound themselves.
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      })
    } catch {
      starting.current = false
      if (mounted.current) window.alert(MICROPHONE_DENIED)
      return
    }
    starting.current = false
    // The page was left, or the person signed out, while the microphone was being asked for: it
    // goes off at once.
    if (!mounted.current || mine !== generation.current) {
      for (const track of stream.getTracks()) track.stop()
      return
    }
    const recorder = new MediaRecorder(stream, MediaRecorder.isTypeSupported(MIME) ? { mimeType: MIME } : {})
    const startedAt = Date.now()
    const s: Session = {
      recorder,
      stream,
      chunks: [],
      startedAt,
      timer: setInterval(() => setSeconds(Math.floor((Date.now() - startedAt) / 1000)), 1000),
    }
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) s.chunks.push(e.data)
    }
    session.current = s
    setSeconds(0)
    setState('recording')
    recorder.start()
  }, [])

  const cancel = useCallback(() => {
    const s = session.current
    if (!s) return
    s.recorder.ondataavailable = null
    s.recorder.onstop = null
    if (s.recorder.state !== 'inactive') s.recorder.stop()
    release()
    setState('idle')
  }, [release])

  /** The session ended here: the microphone goes off and nothing recorded reaches the next person. */
  const forget = useCallback(() => {
    generation.current += 1
    cancel()
    setState('idle')
  }, [cancel])

  const stop = useCallback(() => {
    const s = session.current
    if (!s) return
    const recordedSeconds = Math.floor((Date.now() - s.startedAt) / 1000)
    const mine = generation.current
    s.recorder.onstop = () => {
      // Browsers without webm recording (Safari) record mp4; the server reads the bytes either way.
      const file = new File(s.chunks, `recording-${Date.now()}.webm`, { type: s.recorder.mimeType || MIME })
      void transcribe(file, recordedSeconds, mine)
    }
    setState('transcribing')
    s.recorder.stop()
    release()
  }, [release, transcribe])

  // The server transcribes at most 2 minutes: the recording stops itself there.
  useEffect(() => {
    if (state === 'recording' && seconds >= MAX_RECORDING_SECONDS) stop()
  }, [state, seconds, stop])

  return { state, seconds, start, stop, cancel, forget, listen }
}

export type RecorderSession = ReturnType<typeof useRecorderSession>
