// The composer's 'Upload image' / 'Upload file' choices (spec sections 2 and 5).
import FileText from 'lucide-react/icons/file-text'
import ImageIcon from 'lucide-react/icons/image'
import Paperclip from 'lucide-react/icons/paperclip'
import { useRef } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu.tsx'
import { FILE_PICKER_ACCEPT, IMAGE_PICKER_ACCEPT } from '#contract/attachments.ts'
import { chooseFile } from '../lib/choose-file.ts'

export function AttachmentMenu({ disabled = false }: { disabled?: boolean }) {
  const imageInput = useRef<HTMLInputElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const onPicked = (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    // Cleared so that picking the same file again after removing it still counts as a change.
    e.target.value = ''
    if (file) chooseFile(file)
  }
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            aria-label="Attach a file"
            disabled={disabled}
            className="size-9"
          >
            <Paperclip aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" side="top">
          <DropdownMenuItem onSelect={() => imageInput.current?.click()}>
            <ImageIcon aria-hidden="true" /> Upload image
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => fileInput.current?.click()}>
            <FileText aria-hidden="true" /> Upload file
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <input
        ref={imageInput}
        type="file"
        accept={IMAGE_PICKER_ACCEPT}
        className="hidden"
        tabIndex={-1}
        aria-label="Upload image"
        data-testid="image-input"
        onChange={onPicked}
      />
      <input
        ref={fileInput}
        type="file"
        accept={FILE_PICKER_ACCEPT}
        className="hidden"
        tabIndex={-1}
        aria-label="Upload file"
        data-testid="file-input"
        onChange={onPicked}
      />
    </>
  )
}
