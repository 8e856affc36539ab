import { queryOptions, useQuery } from '@tanstack/react-query'
import type { AppConfig } from '#contract/config.ts'

export const configQueryOptions = queryOptions<AppConfig>({ queryKey: ['/api/config'] })

export function useAppConfig() {
  return useQuery(configQueryOptions).data
}
