// The voice recorder's limit and timer, without zod: the composer shows them before anything is
// recorded (decision 044; transcription.ts re-exports the limit the server checks).

/** Longest recording transcribed; longer ones answer 413. */
export const MAX_RECORDING_SECONDS = 120

/** Seconds as m:ss, the recording timer's format (spec 4). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
