// Conversations as ChatGPT exports them (conversations.json), for tests that need threads made
// quickly: one question and its answer each, imported through the page's own session.
import type { Page } from 'playwright-core'

/** A conversation titled `title`: the question `${title}?` and the answer 'Yes', at `time` (seconds). */
export function chatgptConversation(title: string, time: number) {
  const message = (role: string, text: string, at: number) => ({
    author: { role },
    content: { content_type: 'text', parts: [text] },
    create_time: at,
  })
  return {
    title,
    conversation_id: title,
    create_time: time,
    update_time: time + 1,
    current_node: 'a',
    mapping: {
      root: { id: 'root', parent: '', children: ['q'], message: null },
      q: { id: 'q', parent: 'root', children: ['a'], message: message('user', `${title}?`, time) },
      a: { id: 'a', parent: 'q', children: [], message: message('assistant', 'Yes', time + 1) },
    },
  }
}

/** Imports the conversations as the page's signed-in person; the import's report. */
export function importConversations(page: Page, conversations: object[]): Promise<unknown> {
  return page.evaluate(async (json) => {
    const form = new FormData()
    form.set('file', new File([json], 'conversations.json'))
    const res = await fetch('/api/import', { method: 'POST', body: form })
    return res.ok ? ((await res.json()) as unknown) : { status: res.status }
  }, JSON.stringify(conversations))
}
