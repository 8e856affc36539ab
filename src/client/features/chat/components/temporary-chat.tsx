// A temporary chat (decision 069): the conversation lives in this component only. Each send
// carries the exchanges before it; the server stores none of it. Choosing another thread or
// closing the tab ends it. Trees and usage still count (the server's reply says the count).
import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Textarea } from '#client/components/ui/textarea.tsx'
import { toast } from '#client/hooks/use-toast.ts'
import { usePlantTree } from '../api/plant-tree.ts'
import { streamMessage } from '../api/send-message.ts'
import { getModeFlags } from '../hooks/use-chat-mode.ts'
import { afterSend } from '../lib/after-send.ts'

interface Exchange {
  key: string
  content: string
  response: string
  done: boolean
}

export function TemporaryChat() {
  const [exchanges, setExchanges] = useState<Exchange[]>([])
  const [text, setText] = useState('')
  const abortRef = useRef<AbortController | null>(null)
  const plantTree = usePlantTree()
  const send = useMutation({
    mutationFn: async (content: string) => {
      const key = crypto.randomUUID()
      const history = exchanges
        .filter((e) => e.done && e.response)
        .map(({ content, response }) => ({ content, response }))
      setExchanges((all) => [...all, { key, content, response: '', done: false }])
      const update = (f: (e: Exchange) => Exchange) =>
        setExchanges((all) => all.map((e) => (e.key === key ? f(e) : e)))
      const controller = new AbortController()
      abortRef.current = controller
      try {
        const end = await streamMessage(
          { content, threadId: null, ...getModeFlags(), clientMessageId: key, temporary: true, history },
          {
            signal: controller.signal,
            onEvent: (event) => {
              if (event.text) update((e) => ({ ...e, response: e.response + event.text }))
            },
          },
        )
        update((e) => ({ ...e, done: true }))
        if (afterSend(end.userMessageCount, false).plantTree) plantTree.mutate()
      } catch (err) {
        // Stopped (or left): what arrived stays, as a stored reply's would.
        if (controller.signal.aborted) {
          update((e) => ({ ...e, done: true }))
          return
        }
        setExchanges((all) => all.filter((e) => e.key !== key))
        setText((t) => t || content)
        throw err
      }
    },
    onError: (err) =>
      toast({
        title: 'Error sending message',
        description: err instanceof Error ? err.message : 'Failed to send message',
        variant: 'destructive',
      }),
  })
  // Leaving the temporary chat ends a reply still being written: nothing could show it again.
  useEffect(() => () => abortRef.current?.abort(), [])
  const submit = () => {
    const content = text.trim()
    if (!content || send.isPending) return
    setText('')
    send.mutate(content)
  }
  return (
    <section
      aria-label="Temporary chat"
      className="flex h-full min-h-0 flex-col"
      data-testid="temporary-chat"
    >
      <h1 className="mx-auto w-full max-w-5xl px-4 py-1.5 text-sm font-medium text-muted-foreground">
        Temporary chat
      </h1>
      <p className="mx-auto w-full max-w-5xl px-4 text-xs text-muted-foreground">
        Not saved: no thread, history, search or share. It is gone when you choose another thread or close the
        tab.
      </p>
      <ol className="mx-auto flex w-full max-w-5xl min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-4 py-4">
        {exchanges.map((e) => (
          <li key={e.key} className="grid gap-2" data-testid="temporary-exchange" data-done={e.done}>
            <p className="justify-self-end whitespace-pre-wrap rounded-lg bg-muted px-3 py-2">{e.content}</p>
            <p className="whitespace-pre-wrap" data-testid="temporary-reply">
              {e.response}
            </p>
          </li>
        ))}
      </ol>
      <form
        className="mx-auto flex w-full max-w-5xl gap-2 px-4 pb-4"
        onSubmit={(ev) => {
          ev.preventDefault()
          submit()
        }}
      >
        <Textarea
          aria-label="Temporary message"
          placeholder="Ask without keeping it"
          value={text}
          onChange={(ev) => setText(ev.target.value)}
          onKeyDown={(ev) => {
            if (ev.key === 'Enter' && !ev.shiftKey) {
              ev.preventDefault()
              submit()
            }
          }}
        />
        {send.isPending ? (
          <Button type="button" variant="outline" onClick={() => abortRef.current?.abort()}>
            Stop
          </Button>
        ) : (
          <Button type="submit" disabled={!text.trim()}>
            Send
          </Button>
        )}
      </form>
    </section>
  )
}
