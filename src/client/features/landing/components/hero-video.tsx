import Pause from 'lucide-react/icons/pause'
import Play from 'lucide-react/icons/play'
import { useEffect, useRef } from 'react'

/**
 * The hero's looping background clip: muted, inline, poster first. `playing` is false for
 * visitors who ask for reduced motion and for anyone who pressed the pause button.
 */
export function HeroVideo({ playing, reducedMotion }: { playing: boolean; reducedMotion: boolean }) {
  const video = useRef<HTMLVideoElement>(null)

  useEffect(() => {
    const v = video.current
    if (!v) return
    // Set as a property too: React does not reflect `muted` to the attribute autoplay checks.
    v.muted = true
    if (playing)
      v.play().catch(() => {}) // blocked autoplay just leaves the poster showing
    else v.pause()
  }, [playing])

  return (
    <video
      ref={video}
      className="absolute inset-0 -z-10 size-full object-cover"
      poster="/media/hero-poster.webp"
      autoPlay={playing}
      muted
      loop
      playsInline
      preload={reducedMotion ? 'none' : 'auto'}
      aria-hidden="true"
      tabIndex={-1}
      data-testid="hero-video"
    >
      <source src="/media/hero.webm" type="video/webm" />
      <source src="/media/hero.mp4" type="video/mp4" />
    </video>
  )
}

/** WCAG 2.2.2: motion that loops for longer than 5 s needs a way to stop it. */
export function VideoPauseButton({ paused, onToggle }: { paused: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-pressed={paused}
      title={paused ? 'Play background video' : 'Pause background video'}
      className="inline-flex size-11 items-center justify-center rounded-full border border-white/15 bg-black/30 text-zinc-200 backdrop-blur hover:bg-white/10"
    >
      {paused ? (
        <Play className="size-4" aria-hidden="true" />
      ) : (
        <Pause className="size-4" aria-hidden="true" />
      )}
      <span className="sr-only">Pause background video</span>
    </button>
  )
}
