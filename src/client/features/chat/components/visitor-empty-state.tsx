// The signed-out empty chat (spec section 2): a looping background video, portrait under 768 px,
// with the two lines of text. Reduced motion keeps it still on its poster.
import { useEffect, useRef } from 'react'
import { MOBILE_QUERY, useMediaQuery } from '../hooks/use-media-query.ts'
import { NoModeNotice } from './no-mode-notice.tsx'

export function VisitorEmptyState({ noMode = false }: { noMode?: boolean }) {
  const portrait = useMediaQuery(MOBILE_QUERY)
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)')
  const videoRef = useRef<HTMLVideoElement>(null)
  const name = portrait ? 'chat-bg-portrait' : 'chat-bg-wide'

  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    if (reducedMotion) video.pause()
    else video.play().catch(() => undefined) // autoplay refused: the poster stays
  }, [reducedMotion])

  return (
    <div className="relative flex min-h-0 flex-1 flex-col items-center justify-center overflow-hidden px-4 text-center">
      <div className="absolute inset-0 -z-10" aria-hidden="true">
        <video
          key={name}
          ref={videoRef}
          className="size-full object-cover opacity-60"
          poster={`/media/${name}-poster.webp`}
          muted
          loop
          playsInline
          autoPlay={!reducedMotion}
          preload="metadata"
          data-testid="chat-background-video"
        >
          <source src={`/media/${name}.webm`} type="video/webm" />
          <source src={`/media/${name}.mp4`} type="video/mp4" />
        </video>
      </div>
      <div className="absolute inset-0 -z-10 bg-gradient-to-b from-background/30 via-background/50 to-background" />
      {noMode ? (
        <NoModeNotice heading="h1" />
      ) : (
        <>
          <h1 className="text-3xl font-semibold sm:text-4xl">Loris is ready to help</h1>
          <p className="mt-2 text-muted-foreground">Ask away and start making a positive impact</p>
        </>
      )}
    </div>
  )
}
