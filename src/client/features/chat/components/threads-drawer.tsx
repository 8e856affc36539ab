// Below the large breakpoint the thread list is a drawer opened by 'Show Threads' (spec section 2).
import { PanelLeft } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetTitle,
  SheetTrigger,
} from '#client/components/ui/sheet.tsx'
import { OPEN_THREADS_EVENT } from '../hooks/use-chat-shortcuts.ts'
import { ThreadsPanel } from './threads-panel.tsx'

export function ThreadsDrawer() {
  const [open, setOpen] = useState(false)
  // The search-threads shortcut opens the drawer on phones.
  useEffect(() => {
    const show = () => setOpen(true)
    window.addEventListener(OPEN_THREADS_EVENT, show)
    return () => window.removeEventListener(OPEN_THREADS_EVENT, show)
  }, [])
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="sm" className="gap-1.5 px-2">
          <PanelLeft aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Show Threads</span>
        </Button>
      </SheetTrigger>
      <SheetContent side="left" className="pt-2">
        <div className="px-4 pb-1 pt-2">
          <SheetTitle>Threads</SheetTitle>
          <SheetDescription className="sr-only">Your conversations</SheetDescription>
        </div>
        <div className="min-h-0 flex-1">
          <ThreadsPanel onPicked={() => setOpen(false)} />
        </div>
      </SheetContent>
    </Sheet>
  )
}
