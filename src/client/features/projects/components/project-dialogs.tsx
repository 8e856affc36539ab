// The project dialogs of the thread list: create one, its files, delete it (asking what happens to
// its threads), and move a thread into or out of a project.
import { useId, useRef, useState } from 'react'
import { closesWith, FormDialog, TitledDialog } from '#client/components/titled-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { DialogFooter } from '#client/components/ui/dialog.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { Label } from '#client/components/ui/label.tsx'
import { Textarea } from '#client/components/ui/textarea.tsx'
import type { Project } from '#contract/assistant.ts'
import type { Thread } from '#contract/threads.ts'
import {
  useAddProjectFile,
  useCreateProject,
  useDeleteProject,
  useMoveThread,
  useProjectFiles,
  useProjects,
} from '../api/projects.ts'

export function NewProjectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('')
  const [instructions, setInstructions] = useState('')
  const nameId = useId()
  const instructionsId = useId()
  const create = useCreateProject(() => {
    setName('')
    setInstructions('')
    onClose()
  })
  return (
    <FormDialog
      open={open}
      onOpenChange={closesWith(onClose)}
      title="New project"
      description="Threads in a project share its instructions and files."
      formClassName="grid gap-3"
      onSubmit={() => create.mutate({ name, instructions })}
      submitLabel="Create project"
      submitDisabled={!name.trim() || create.isPending}
    >
      <Label htmlFor={nameId}>Project name</Label>
      <Input id={nameId} value={name} onChange={(e) => setName(e.target.value)} />
      <Label htmlFor={instructionsId}>Project instructions</Label>
      <Textarea id={instructionsId} value={instructions} onChange={(e) => setInstructions(e.target.value)} />
    </FormDialog>
  )
}

export function ProjectFilesDialog({ project, onClose }: { project: Project | null; onClose: () => void }) {
  const files = useProjectFiles(project?.id ?? null)
  const add = useAddProjectFile(project?.id ?? null)
  const input = useRef<HTMLInputElement>(null)
  return (
    <TitledDialog
      open={project !== null}
      onOpenChange={closesWith(onClose)}
      title={<>Files of {project?.name}</>}
      description="Read once and split into passages: a message in this project sends only the passages that match it."
    >
      <ul className="grid gap-1 text-sm" data-testid="project-files">
        {(files.data ?? []).map((f) => (
          <li key={f.id}>
            {f.name} — {f.chars.toLocaleString('en-US')} characters, {f.passages.toLocaleString('en-US')}{' '}
            passages
          </li>
        ))}
        {files.data?.length === 0 && <li className="text-muted-foreground">No files yet</li>}
      </ul>
      <input
        ref={input}
        type="file"
        aria-label="Project file"
        className="sr-only"
        onChange={(e) => {
          const file = e.target.files?.[0]
          if (file) add.mutate(file)
          e.target.value = ''
        }}
      />
      <DialogFooter>
        <Button onClick={() => input.current?.click()} disabled={add.isPending}>
          {add.isPending ? 'Reading…' : 'Add file'}
        </Button>
      </DialogFooter>
    </TitledDialog>
  )
}

export function DeleteProjectDialog({ project, onClose }: { project: Project | null; onClose: () => void }) {
  const remove = useDeleteProject(onClose)
  const run = (threads: 'keep' | 'delete') => project && remove.mutate({ id: project.id, threads })
  return (
    <TitledDialog
      open={project !== null}
      onOpenChange={closesWith(onClose)}
      title="Delete project"
      description={
        <>What should happen to the threads of "{project?.name}"? Its files and instructions go either way.</>
      }
    >
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="outline" disabled={remove.isPending} onClick={() => run('keep')}>
          Keep its threads
        </Button>
        <Button variant="destructive" disabled={remove.isPending} onClick={() => run('delete')}>
          Delete its threads too
        </Button>
      </DialogFooter>
    </TitledDialog>
  )
}

export function MoveThreadDialog({ thread, onClose }: { thread: Thread | null; onClose: () => void }) {
  const projects = useProjects(thread !== null)
  const move = useMoveThread(onClose)
  const to = (projectId: string | null) => thread && move.mutate({ threadId: thread.id, projectId })
  return (
    <TitledDialog
      open={thread !== null}
      onOpenChange={closesWith(onClose)}
      title="Move to project"
      description={<>Where should "{thread?.title}" go?</>}
    >
      <div className="grid gap-2">
        {(projects.data ?? []).map((p) => (
          <Button
            key={p.id}
            variant={thread?.projectId === p.id ? 'secondary' : 'outline'}
            disabled={move.isPending || thread?.projectId === p.id}
            onClick={() => to(p.id)}
          >
            {p.name}
          </Button>
        ))}
        {thread?.projectId ? (
          <Button variant="outline" disabled={move.isPending} onClick={() => to(null)}>
            No project
          </Button>
        ) : null}
        {projects.data?.length === 0 && <p className="text-sm text-muted-foreground">No projects yet</p>}
      </div>
    </TitledDialog>
  )
}
