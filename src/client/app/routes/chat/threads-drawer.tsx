// Below the large breakpoint the thread list is a drawer opened by 'Show Threads' (spec section 2).
import PanelLeft from 'lucide-react/icons/panel-left'
import { useEffect, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetTitle,
  SheetTrigger,
} from '#client/components/ui/sheet.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { OPEN_THREADS_EVENT } from '#client/features/chat/hooks/use-chat-shortcuts.ts'
import { useLoadedModule } from '#client/lib/module-loader.ts'
import { threadsUi } from './threads-ui.ts'

export function ThreadsDrawer() {
  const [open, setOpen] = useState(false)
  // The list's code is fetched when the button is about to be used; until it is in,
  // the drawer shows the list's own loading state.
  const [wanted, setWanted] = useState(false)
  const want = () => setWanted(true)
  const ui = useLoadedModule(threadsUi, wanted || open)
  // The search-threads shortcut opens the drawer on phones.
  useEffect(() => {
    const show = () => setOpen(true)
    window.addEventListener(OPEN_THREADS_EVENT, show)
    return () => window.removeEventListener(OPEN_THREADS_EVENT, show)
  }, [])
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="gap-1.5 px-2"
          onPointerEnter={want}
          onPointerDown={want}
          onFocus={want}
        >
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
          {ui ? (
            <ui.ThreadsPanel onPicked={() => setOpen(false)} />
          ) : (
            <Spinner className="mx-auto my-8 block size-5" label="Loading threads" />
          )}
        </div>
      </SheetContent>
    </Sheet>
  )
}
