import { useQuery } from '@tanstack/react-query'
import { apiJson } from '#client/lib/api.ts'
import type { ChatModel } from '#contract/config.ts'
import type { NextModel } from '#contract/messages.ts'

/** The model this server answers the next message in `mode` with (the real one). */
export function useNextModel(mode: ChatModel) {
  return useQuery({
    queryKey: ['/api/chat/next-model', mode],
    queryFn: () => apiJson<NextModel>('GET', `/api/chat/next-model?mode=${mode}`),
    staleTime: 30_000,
  })
}
