// A file dropped beside the drop zone (on the thread list, the header, the resize bar) would be
// opened by the browser in place of the app, and the message being written lost with it. While
// the chat is shown, such drops are refused: the pointer says so, and nothing is opened.
import { useEffect } from 'react'

export function useWindowDropGuard() {
  useEffect(() => {
    const refuse = (e: DragEvent) => {
      // The zone's own handlers ran first (React listens below the window) and took its drops.
      if (e.defaultPrevented || !e.dataTransfer?.types.includes('Files')) return
      e.preventDefault()
      e.dataTransfer.dropEffect = 'none'
    }
    window.addEventListener('dragover', refuse)
    window.addEventListener('drop', refuse)
    return () => {
      window.removeEventListener('dragover', refuse)
      window.removeEventListener('drop', refuse)
    }
  }, [])
}
