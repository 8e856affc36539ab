import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { threadsQueryKey } from '#client/app/api/get-threads.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, apiRequest, errorText } from '#client/lib/api.ts'
import type { Project, ProjectBody, ProjectFile } from '#contract/assistant.ts'

export const projectsQueryKey = ['/api/projects'] as const

export function useProjects(enabled = true) {
  return useQuery({
    queryKey: projectsQueryKey,
    queryFn: () => apiJson<Project[]>('GET', '/api/projects'),
    enabled,
  })
}

const failed = (title: string) => (err: unknown) =>
  toast({ title, description: errorText(err, 'Please try again'), variant: 'destructive' })

export function useCreateProject(onCreated?: (p: Project) => void) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: ProjectBody) => apiJson<Project>('POST', '/api/projects', body),
    onSuccess: (p) => {
      void qc.invalidateQueries({ queryKey: projectsQueryKey })
      onCreated?.(p)
    },
    onError: failed('Error creating project'),
  })
}

export function useDeleteProject(onDone?: () => void) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, threads }: { id: string; threads: 'keep' | 'delete' }) =>
      apiRequest('DELETE', `/api/projects/${id}?threads=${threads}`),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: projectsQueryKey })
      void qc.invalidateQueries({ queryKey: threadsQueryKey })
      onDone?.()
    },
    onError: failed('Error deleting project'),
  })
}

export function useMoveThread(onDone?: () => void) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ threadId, projectId }: { threadId: string; projectId: string | null }) =>
      apiRequest('PUT', `/api/threads/${threadId}/project`, { projectId }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: threadsQueryKey })
      onDone?.()
    },
    onError: failed('Error moving thread'),
  })
}

export function useProjectFiles(projectId: string | null) {
  return useQuery({
    queryKey: ['/api/projects', projectId, 'files'],
    queryFn: () => apiJson<ProjectFile[]>('GET', `/api/projects/${projectId}/files`),
    enabled: Boolean(projectId),
  })
}

export function useAddProjectFile(projectId: string | null) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData()
      form.append('file', file)
      return apiJson<ProjectFile>('POST', `/api/projects/${projectId}/files`, form)
    },
    onSuccess: (f) => {
      void qc.invalidateQueries({ queryKey: ['/api/projects', projectId, 'files'] })
      toast({ title: 'File added', description: `${f.name}: ${f.passages.toLocaleString('en-US')} passages` })
    },
    onError: failed('Error adding file'),
  })
}
