// The chat mode (spec section 4), persisted in local storage as two booleans so it survives
// reloads; every component reading it sees the same value.
import { useSyncExternalStore } from 'react'
import type { ChatModel } from '#contract/config.ts'
import {
  ECO_MODE_KEY,
  flagsFromModel,
  type ModeFlags,
  modelFromFlags,
  parseStoredFlag,
  USE_OPENAI_KEY,
} from '../lib/chat-mode.ts'

const listeners = new Set<() => void>()
let cached: ModeFlags | null = null

function read(): ModeFlags {
  if (cached) return cached
  try {
    cached = {
      isEcoMode: parseStoredFlag(localStorage.getItem(ECO_MODE_KEY)),
      useOpenAI: parseStoredFlag(localStorage.getItem(USE_OPENAI_KEY)),
    }
  } catch {
    cached = { isEcoMode: false, useOpenAI: false }
  }
  return cached
}

export function setModeFlags(flags: ModeFlags) {
  cached = { isEcoMode: flags.isEcoMode, useOpenAI: flags.useOpenAI }
  try {
    localStorage.setItem(ECO_MODE_KEY, JSON.stringify(flags.isEcoMode))
    localStorage.setItem(USE_OPENAI_KEY, JSON.stringify(flags.useOpenAI))
  } catch {
    // Storage may be full or blocked; the mode still applies to this page.
  }
  for (const l of listeners) l()
}

export function setChatModel(model: ChatModel) {
  setModeFlags(flagsFromModel(model))
}

/** Whether this browser has a mode stored (a person who never chose one gets the server's default). */
export function hasStoredMode(): boolean {
  try {
    return localStorage.getItem(ECO_MODE_KEY) !== null || localStorage.getItem(USE_OPENAI_KEY) !== null
  } catch {
    return false
  }
}

export function getModeFlags(): ModeFlags {
  return read()
}

function subscribe(l: () => void) {
  listeners.add(l)
  // Another tab changed the mode.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== ECO_MODE_KEY && e.key !== USE_OPENAI_KEY) return
    cached = null
    l()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(l)
    window.removeEventListener('storage', onStorage)
  }
}

export function useChatMode(): { flags: ModeFlags; model: ChatModel } {
  const flags = useSyncExternalStore(subscribe, read)
  return { flags, model: modelFromFlags(flags) }
}
