// The thread list wired to the selection (spec section 4): picking a thread shows it and takes
// its mode; deleting the shown one goes back to Default. While searching, matches inside
// messages open their thread at that exchange.

import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import FolderPlus from 'lucide-react/icons/folder-plus'
import Ghost from 'lucide-react/icons/ghost'
import Paperclip from 'lucide-react/icons/paperclip'
import Plus from 'lucide-react/icons/plus'
import Trash2 from 'lucide-react/icons/trash'
import { useState } from 'react'
import { threadsQueryKey, useThreads } from '#client/app/api/get-threads.ts'
import { Button } from '#client/components/ui/button.tsx'
import { messagesQueryOptions } from '#client/features/chat/api/get-messages.ts'
import { showBranchOf } from '#client/features/chat/api/select-version.ts'
import { clearFocusedMessage, focusMessage } from '#client/features/chat/hooks/use-focus-message.ts'
import { openTemporaryChat } from '#client/features/chat/hooks/use-temporary-chat.ts'
import {
  clearSelection,
  selectThread,
  showThread,
  startNewThread,
  useSelection,
} from '#client/features/chat/hooks/use-thread-selection.ts'
import { useProjects } from '#client/features/projects/api/projects.ts'
import {
  DeleteProjectDialog,
  MoveThreadDialog,
  NewProjectDialog,
  ProjectFilesDialog,
} from '#client/features/projects/components/project-dialogs.tsx'
import { MessageMatches } from '#client/features/search/components/message-matches.tsx'
import { ThreadList } from '#client/features/threads/components/thread-list.tsx'
import { toast } from '#client/hooks/use-toast.ts'
import type { Project } from '#contract/assistant.ts'
import type { Thread } from '#contract/threads.ts'

export function ThreadsPanel({ onPicked }: { onPicked?: () => void }) {
  const threads = useThreads(true)
  const projects = useProjects(true)
  const [creatingProject, setCreatingProject] = useState(false)
  const [filesOf, setFilesOf] = useState<Project | null>(null)
  const [deletingProject, setDeletingProject] = useState<Project | null>(null)
  const [moving, setMoving] = useState<Thread | null>(null)
  const projectById = (id: string) => projects.data?.find((p) => p.id === id) ?? null
  const selection = useSelection()
  const queryClient = useQueryClient()
  const noHistory = useNoHistory(threads.data, !threads.hasNextPage)
  // A failed next page leaves the loaded threads shown, with its own Retry: asking again at once
  // would loop requests while the rows stay few (a search). The list decides how an error shows:
  // in place of a list never loaded, else as a notice above it.
  return (
    <>
      <ThreadList
        projects={projects.data}
        onMove={setMoving}
        extraButtons={
          <div className="flex gap-2">
            <Button
              variant="ghost"
              size="sm"
              className="flex-1 justify-start"
              onClick={() => {
                openTemporaryChat()
                onPicked?.()
              }}
            >
              <Ghost aria-hidden="true" /> Temporary chat
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="flex-1 justify-start"
              onClick={() => setCreatingProject(true)}
            >
              <FolderPlus aria-hidden="true" /> New project
            </Button>
          </div>
        }
        projectActions={(folder) =>
          [
            {
              label: `New thread in ${folder.name}`,
              icon: <Plus aria-hidden="true" />,
              act: () => {
                startNewThread(folder.id)
                onPicked?.()
              },
            },
            {
              label: `Files of ${folder.name}`,
              icon: <Paperclip aria-hidden="true" />,
              act: () => setFilesOf(projectById(folder.id)),
            },
            {
              label: `Delete project ${folder.name}`,
              icon: <Trash2 aria-hidden="true" />,
              act: () => setDeletingProject(projectById(folder.id)),
            },
          ].map(({ label, icon, act }) => (
            <Button
              key={label}
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label={label}
              onClick={act}
            >
              {icon}
            </Button>
          ))
        }
        threads={threads.data}
        isLoading={threads.isLoading}
        error={threads.error}
        onRetry={() => void threads.refetch()}
        hasMore={threads.hasNextPage && !threads.isFetchingNextPage && !threads.isFetchNextPageError}
        loadMoreFailed={threads.isFetchNextPageError && !threads.isFetchingNextPage}
        onLoadMore={threads.fetchNextPage}
        noHistory={noHistory}
        selectedId={selection.kind === 'thread' ? selection.id : null}
        onSelect={(thread: Thread) => {
          selectThread(thread)
          onPicked?.()
        }}
        onNewThread={() => {
          startNewThread()
          onPicked?.()
        }}
        onDeleted={(id) => {
          if (selection.kind === 'thread' && selection.id === id) clearSelection()
        }}
        renderSearchExtra={(search) => (
          <MessageMatches
            search={search}
            onOpen={(match) => {
              focusMessage(match.messageId, match.threadId)
              onPicked?.()
              // The match may be in a version not shown: its branch is selected, then the thread opens.
              void showBranchOf(queryClient, match.messageId, match.threadId).then((shown) => {
                const thread = threads.data?.find((t) => t.id === match.threadId)
                if (shown === 'gone') {
                  // Deleted since the search (elsewhere, perhaps with its thread): nothing to open or
                  // bring into view; the matches and the list are refreshed.
                  clearFocusedMessage()
                  toast({ title: 'That message no longer exists' })
                  void queryClient.invalidateQueries({ queryKey: ['/api/search'] })
                  void queryClient.invalidateQueries({ queryKey: threadsQueryKey })
                } else if (thread) selectThread(thread)
                else showThread(match.threadId)
              })
            }}
          />
        )}
      />
      <NewProjectDialog open={creatingProject} onClose={() => setCreatingProject(false)} />
      <ProjectFilesDialog project={filesOf} onClose={() => setFilesOf(null)} />
      <DeleteProjectDialog project={deletingProject} onClose={() => setDeletingProject(null)} />
      <MoveThreadDialog thread={moving} onClose={() => setMoving(null)} />
    </>
  )
}

/**
 * Whether the person has no conversation yet (spec section 2's empty list): Default is their
 * only thread and holds nothing. Its loaded messages say so when the chat has them (Clear History
 * empties Default but moves its date); else a Default never written to keeps its creation date.
 */
function useNoHistory(threads: Thread[] | undefined, complete: boolean): boolean {
  const only = complete && threads?.length === 1 && threads[0]?.isDefault ? threads[0] : undefined
  // Only the cache is read (enabled: false): the list never fetches a thread's messages.
  const messages = useInfiniteQuery({ ...messagesQueryOptions(only?.id ?? ''), enabled: false })
  if (!only) return false
  if (messages.data) return messages.data.pages.every((page) => page.items.length === 0)
  return only.lastMessageAt === only.createdAt
}
