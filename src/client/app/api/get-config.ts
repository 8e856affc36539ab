import { queryOptions, useQuery } from '@tanstack/react-query'
import type { AppConfig } from '#contract/config.ts'

export const configQueryOptions = queryOptions<AppConfig>({ queryKey: ['/api/config'] })

// While the eco model is being fetched or loaded, its progress is polled for the mode menu.
const PREPARING_POLL_MS = 1_000

export function isEcoPreparing(config: AppConfig | undefined): boolean {
  const state = config?.ecoEngine?.state
  return state === 'downloading' || state === 'loading'
}

export function useAppConfig() {
  return useQuery({
    ...configQueryOptions,
    refetchInterval: (query) => (isEcoPreparing(query.state.data) ? PREPARING_POLL_MS : false),
  }).data
}
