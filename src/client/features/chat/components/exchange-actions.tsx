// What a person can do to an exchange: edit the sent text, regenerate or retry the
// reply (optionally in another mode), switch between versions, copy, branch with '@'. Given by
// the chat view through context so the virtualized list passes nothing down.
import { createContext, useContext } from 'react'
import type { ChatModel } from '#contract/config.ts'
import type { Message } from '#contract/messages.ts'

export type RevisedExchange = Pick<
  Message,
  'id' | 'content' | 'mediaUrl' | 'mediaType' | 'mediaName' | 'mediaMime'
>

export interface ExchangeActions {
  /** A reply is being written: nothing may start another. */
  busy: boolean
  edit: (of: RevisedExchange, content: string) => void
  /** In a mode, or with a catalogue model (`catalogueModel`, GET /api/models) when one is given. */
  regenerate: (of: RevisedExchange, model: ChatModel, catalogueModel?: string | null) => void
  /** "Ask a larger model": a new version from the next model up the eco pool. */
  askLarger: (of: RevisedExchange) => void
  selectVersion: (id: string) => void
  newThread: (messageId: string) => void
  creatingThread: boolean
}

export const ExchangeActionsContext = createContext<ExchangeActions | null>(null)

export function useExchangeActions(): ExchangeActions | null {
  return useContext(ExchangeActionsContext)
}
