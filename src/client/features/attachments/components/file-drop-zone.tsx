// Drag-and-drop over the chat (spec sections 2 and 5): an overlay while files are dragged over;
// the first dropped file is attached if it is of an accepted type, anything else is ignored.
// A file pasted anywhere in the chat (a screenshot from the clipboard) is attached the same way;
// a paste of text (even one carrying a picture of itself) goes on into the message box as usual.
import Upload from 'lucide-react/icons/upload'
import { useRef, useState } from 'react'
import { isDroppable } from '#contract/attachments.ts'
import { useWindowDropGuard } from '../hooks/use-window-drop-guard.ts'
import { chooseFile } from '../lib/choose-file.ts'

const carriesFiles = (e: React.DragEvent) => Array.from(e.dataTransfer.types).includes('Files')

export function FileDropZone({ children, className }: { children: React.ReactNode; className?: string }) {
  const [dragging, setDragging] = useState(false)
  // dragenter/dragleave fire for every child crossed: count them to know when the pointer left.
  const depth = useRef(0)
  useWindowDropGuard()
  return (
    <section
      aria-label="Chat"
      className={`relative ${className ?? ''}`}
      onDragEnter={(e) => {
        if (!carriesFiles(e)) return
        e.preventDefault()
        depth.current += 1
        setDragging(true)
      }}
      onDragOver={(e) => {
        if (!carriesFiles(e)) return
        e.preventDefault()
        e.dataTransfer.dropEffect = 'copy'
      }}
      onDragLeave={(e) => {
        if (!carriesFiles(e)) return
        depth.current = Math.max(0, depth.current - 1)
        if (depth.current === 0) setDragging(false)
      }}
      onPaste={(e) => {
        // Cells from Excel, a paragraph from Word or OneNote come with a picture of themselves
        // too: with text on the clipboard, the text is what was meant.
        if (e.clipboardData.getData('text/plain').trim()) return
        const file = Array.from(e.clipboardData.files).find(isDroppable)
        if (!file) return
        e.preventDefault()
        chooseFile(file)
      }}
      onDrop={(e) => {
        if (!carriesFiles(e)) return
        e.preventDefault()
        depth.current = 0
        setDragging(false)
        const file = e.dataTransfer.files[0]
        if (file && isDroppable(file)) chooseFile(file)
      }}
    >
      {children}
      {dragging && (
        <div
          data-testid="drop-overlay"
          className="pointer-events-none absolute inset-0 z-40 flex items-center justify-center bg-background/85 p-6 backdrop-blur-sm"
        >
          <div className="flex flex-col items-center gap-2 rounded-2xl border-2 border-dashed border-primary px-10 py-12 text-center">
            <Upload className="size-10 text-primary" aria-hidden="true" />
            <p className="text-lg font-semibold">Drop your file here</p>
            <p className="text-sm text-muted-foreground">Supports images, documents, and text files</p>
          </div>
        </div>
      )}
    </section>
  )
}
