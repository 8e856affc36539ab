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
  const pickers = [
    {
      label: 'Upload image',
      icon: <ImageIcon aria-hidden="true" />,
      accept: IMAGE_PICKER_ACCEPT,
      testId: 'image-input',
      ref: imageInput,
    },
    {
      label: 'Upload file',
      icon: <FileText aria-hidden="true" />,
      accept: FILE_PICKER_ACCEPT,
      testId: 'file-input',
      ref: fileInput,
    },
  ]
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
          {pickers.map((picker) => (
            <DropdownMenuItem key={picker.label} onSelect={() => picker.ref.current?.click()}>
              {picker.icon} {picker.label}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      {pickers.map((picker) => (
        <input
          key={picker.label}
          ref={picker.ref}
          type="file"
          accept={picker.accept}
          className="hidden"
          tabIndex={-1}
          aria-label={picker.label}
          data-testid={picker.testId}
          onChange={onPicked}
        />
      ))}
    </>
  )
}
