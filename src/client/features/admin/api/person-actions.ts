import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { AdminPerson } from '#contract/admin.ts'
import { auditQueryKey } from './get-audit.ts'
import { peopleQueryKey } from './get-people.ts'

type Action =
  | { kind: 'suspend' | 'restore' }
  | { kind: 'role'; operator: boolean }
  | { kind: 'delete'; confirmEmail: string }

function request(person: AdminPerson, action: Action) {
  const base = `/api/admin/users/${encodeURIComponent(person.id)}`
  switch (action.kind) {
    case 'suspend':
    case 'restore':
      return apiJson('POST', `${base}/${action.kind}`)
    case 'role':
      return apiJson('PUT', `${base}/role`, { operator: action.operator })
    case 'delete':
      return apiJson('DELETE', base, { confirmEmail: action.confirmEmail })
  }
}

function doneText(person: AdminPerson, action: Action): string {
  switch (action.kind) {
    case 'suspend':
      return `${person.email} is suspended and signed out everywhere`
    case 'restore':
      return `${person.email} can sign in again`
    case 'role':
      return action.operator
        ? `${person.email} is now an operator`
        : `${person.email} is no longer an operator`
    case 'delete':
      return `${person.email}'s account was deleted`
  }
}

/** Suspend, restore, grant or remove the operator role, delete: each is audited by the server. */
export function usePersonAction() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ person, action }: { person: AdminPerson; action: Action }) => request(person, action),
    onSuccess: async (_, { person, action }) => {
      toast({ title: 'Done', description: doneText(person, action) })
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: peopleQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey }),
      ])
    },
    onError: (err) =>
      toast({
        title: 'That did not work',
        description: errorText(err, 'The server could not do this. Try again.'),
        variant: 'destructive',
      }),
  })
}
