// First run and the default mode: a person whose stored mode this server cannot serve,
// or who has none, gets GET /api/config's defaultChatModel.
import { useEffect } from 'react'
import { useAppConfig } from '#client/app/api/get-config.ts'
import { resolveMode } from '../lib/chat-mode.ts'
import { hasStoredMode, setChatModel, useChatMode } from './use-chat-mode.ts'

export function useDefaultMode() {
  const config = useAppConfig()
  const { model } = useChatMode()
  useEffect(() => {
    if (!config) return
    const stored = hasStoredMode() ? model : null
    const next = resolveMode(stored, config)
    if (next !== model || (stored === null && config.defaultChatModel === next)) setChatModel(next)
  }, [config, model])
}
