// An export a person edited by hand, or that was damaged: values not in the form ChatGPT (or
// Loris) writes cost that message or that conversation, with a reason the person can act on,
// never the whole file (decision 040).
import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importReportSchema } from '#contract/import.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { jsonBytes as json, lorisMessage, lorisThreadExport } from './loris-export-kit.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function importReport(bytes: Uint8Array, name: string) {
  const { cookie } = await t.signUp()
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  const res = await t.request('/api/import', { method: 'POST', cookie, body: form })
  expect(res.status, await res.clone().text()).toBe(200)
  return importReportSchema.parse(await res.json())
}

const message = (role: string, parts: unknown[], time = 1_700_000_000) => ({
  author: { role },
  content: { content_type: 'text', parts },
  create_time: time,
  metadata: {},
})

/** A question and its answer; `answer` replaces the answer's node, `extra` adds nodes. */
function conversation(id: string, answer: unknown, extra: Record<string, unknown> = {}, current = 'a') {
  return {
    title: id,
    conversation_id: id,
    create_time: 1_700_000_000,
    current_node: current,
    mapping: {
      u: { id: 'u', parent: null, children: ['a'], message: message('user', [`question ${id}`]) },
      a: answer,
      ...extra,
    },
  }
}
const answerWith = (m: unknown) => ({ id: 'a', parent: 'u', children: [], message: m })
const NOT_CHATGPT = 'not in the form of a ChatGPT export (the file may have been edited or damaged)'

describe('a ChatGPT export with entries not in its form', () => {
  it('leaves out each message that is not one, keeps the rest, and says so', async () => {
    const report = await importReport(
      json([
        conversation('number', answerWith(5)),
        conversation('text', answerWith('x')),
        conversation('author', answerWith({ author: 'assistant', content: { parts: ['a'] } })),
        conversation('content', answerWith({ author: { role: 'assistant' }, content: 'a' })),
        // The current node itself: the branch ends at the question instead.
        conversation('array node', [1, 2]),
        conversation('null node', null),
        // Parts: text kept, a picture (an object) noted as left out, a number and null unreadable.
        conversation(
          'parts',
          answerWith(message('assistant', ['kept', 7, null, { content_type: 'image_asset_pointer' }])),
        ),
        // No current node, and a leaf whose time is an object arithmetic cannot read.
        conversation(
          'odd time',
          answerWith(message('assistant', ['an answer'])),
          {
            z: {
              id: 'z',
              parent: null,
              children: [],
              message: { create_time: { valueOf: null, toString: null } },
            },
          },
          'missing',
        ),
      ]),
      'conversations.json',
    )
    expect(report).toMatchObject({ threadsImported: 8, messagesImported: 8, skipped: [] })
    expect(report.notes).toContain(`8 messages or parts of messages left out: they are ${NOT_CHATGPT}`)
    expect(report.notes).toContain('1 picture or other non-text part left out: only text is imported')
  })

  it('skips a conversation none of whose messages can be read, with the reason, and imports the others', async () => {
    const unreadable = {
      title: 'broken',
      conversation_id: 'broken',
      current_node: 'b',
      mapping: {
        a: { id: 'a', parent: null, children: ['b'], message: 'hello' },
        b: {
          id: 'b',
          parent: 'a',
          children: [],
          message: { author: { role: 'user' }, content: { parts: 3 } },
        },
      },
    }
    const report = await importReport(
      json([
        unreadable,
        { title: 'mapping', conversation_id: 'mapping', mapping: [1] },
        conversation('fine', answerWith(message('assistant', ['yes']))),
      ]),
      'conversations.json',
    )
    expect(report).toMatchObject({ threadsImported: 1, messagesImported: 1 })
    expect(report.skipped).toEqual([
      { title: 'broken', reason: `none of its messages could be read: they are ${NOT_CHATGPT}` },
      { title: 'mapping', reason: `none of its messages could be read: they are ${NOT_CHATGPT}` },
    ])
  })
})

describe('a Loris export with a thread not in its form', () => {
  it('skips that thread with the reason and imports the others', async () => {
    const thread = (title: string, messages: unknown[]) => lorisThreadExport(title, messages)
    const good = lorisMessage(new Date().toISOString())
    const report = await importReport(
      zipSync({
        'threads/0001-a.json': json(thread('Broken', [good, null])),
        'threads/0002-b.json': json(thread('Fine', [good])),
      }),
      'loris-export.zip',
    )
    expect(report).toMatchObject({ threadsImported: 1, messagesImported: 1 })
    expect(report.skipped).toEqual([{ title: 'Broken', reason: 'not a Loris thread export' }])
  })
})
