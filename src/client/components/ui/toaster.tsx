import { useLayoutEffect, useState } from 'react'
import { dismissToast, useToasts } from '#client/hooks/use-toast.ts'
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast.tsx'

/** Phones: the width where the header has no free middle for a toast (spec section 2, 768 px). */
const PHONE_QUERY = '(max-width: 767px)'

/**
 * On a phone, where toasts start: below the bars at the top of the page that hold controls (the
 * chat's header, the e-mail banner, the landing page's header), each marked `data-toasts-below`, so a toast never covers the
 * threads button, the badges or the menu. Measured when a toast shows and as the screen turns.
 * Wider screens keep the viewport's own place, the header's empty middle.
 */
function usePhoneToastTop(showing: boolean): number | undefined {
  const [top, setTop] = useState<number>()
  useLayoutEffect(() => {
    if (!showing) return
    const measure = () => {
      if (!window.matchMedia(PHONE_QUERY).matches) return setTop(undefined)
      const bottoms = [...document.querySelectorAll('[data-toasts-below]')]
        .map((el) => el.getBoundingClientRect())
        // Still on screen (a page's header scrolls away with it), and at the top.
        .filter((r) => r.height > 0 && r.bottom > 0 && r.top < window.innerHeight / 3)
        .map((r) => r.bottom)
      setTop(bottoms.length > 0 ? Math.max(...bottoms) : undefined)
    }
    measure()
    window.addEventListener('resize', measure)
    return () => window.removeEventListener('resize', measure)
  }, [showing])
  return top
}

export function Toaster() {
  const toasts = useToasts()
  const top = usePhoneToastTop(toasts.some((t) => t.open))
  return (
    <ToastProvider>
      {toasts.map((t) => (
        <Toast
          key={t.id}
          variant={t.variant}
          open={t.open}
          duration={t.duration}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id)
          }}
        >
          <div className="grid gap-1">
            {t.title && <ToastTitle>{t.title}</ToastTitle>}
            {t.description && <ToastDescription>{t.description}</ToastDescription>}
          </div>
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport style={top === undefined ? undefined : { top }} />
    </ToastProvider>
  )
}
