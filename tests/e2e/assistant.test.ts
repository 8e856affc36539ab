// The assistant set up once: custom instructions reach the model (read from the AI stand-in's
// recorded requests) and can be turned off; projects hold threads and answer from their files'
// passages; a document attached to one message is retrieved, not sent again, on later turns; a
// temporary chat leaves nothing stored.
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { describe, expect, it } from 'vitest'
import { AccountPage } from '../pages/account-page.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { ComposerControls } from '../pages/composer.ts'
import { startAppServer } from './support/app-server.ts'
import { aiProviderEnv, chatHarnessForFile } from './support/chat-harness.ts'
import { isTemplate, templateDataDir } from './support/data-template.ts'

const h = chatHarnessForFile({ emailPrefix: 'assistant' })

const desktop = { viewport: { width: 1280, height: 800 } }

/** The system prompt the model was last sent (Gemini's wire shape). */
function lastSystem(): string {
  const body = h.standIn.requests.at(-1)?.body as { systemInstruction?: { parts?: { text: string }[] } }
  return (body?.systemInstruction?.parts ?? []).map((p) => p.text).join('')
}

describe('custom instructions', () => {
  it('are written in Settings > Account, reach the model, and stop when turned off', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const account = new AccountPage(page, h.server.url)
    await account.open('account')
    const card = page.getByTestId('custom-instructions')
    await card.getByLabel('What should Loris know about you?').fill('I keep bees on a rooftop in Ghent.')
    await card.getByLabel('How should Loris answer?').fill('Answer like a ship captain.')
    await card.getByRole('button', { name: 'Save instructions' }).click()
    await chat.toast('Instructions saved').waitFor()

    await chat.open()
    await chat.send('How are my bees?')
    await chat.waitForReply('How are my bees?', 'Echo:')
    expect(lastSystem()).toContain('I keep bees on a rooftop in Ghent.')
    expect(lastSystem()).toContain('Answer like a ship captain.')

    await account.open('account')
    await card.getByLabel('Use my instructions').uncheck()
    await card.getByRole('button', { name: 'Save instructions' }).click()
    await chat.toast('Instructions saved').waitFor()
    await chat.open()
    await chat.send('And now?')
    await chat.waitForReply('And now?', 'Echo:')
    expect(lastSystem()).not.toContain('bees')
    expect(unexpectedErrors()).toEqual([])
  })
})

/** A long document (over 200 KB) whose one paragraph answers the question the test asks. */
function longDocument(): string {
  const parts: string[] = []
  for (let i = 0; i < 1100; i++) {
    parts.push(
      `Section ${i}. The committee reviewed routine logistics, catering budgets and parking arrangements for the annual meeting, noting nothing unusual about chairs, tables or coffee supplies in hall ${i}.`,
    )
    if (i === 700)
      parts.push(
        'The lighthouse keeper Marguerite Ovalle recorded that the quokka colony numbered 412 animals.',
      )
  }
  return parts.join('\n\n')
}

describe('projects', () => {
  it('answer from the passage of a 200 KB file that matches, citing it, with under 10 % of the file sent', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const threads = page.getByRole('navigation', { name: 'Threads' })
    await threads.getByRole('button', { name: 'New project' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Project name').fill('Island survey')
    await dialog.getByLabel('Project instructions').fill('Quote the survey when you can.')
    await dialog.getByRole('button', { name: 'Create project' }).click()
    await threads.getByTestId('project-folder').filter({ hasText: 'Island survey' }).waitFor()

    const doc = longDocument()
    expect(doc.length).toBeGreaterThan(200_000)
    await threads.getByRole('button', { name: 'Files of Island survey' }).click()
    await page
      .getByRole('dialog')
      .getByLabel('Project file')
      .setInputFiles({ name: 'survey.txt', mimeType: 'text/plain', buffer: Buffer.from(doc) })
    await page.getByTestId('project-files').getByText('survey.txt').waitFor()
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })

    await threads.getByRole('button', { name: 'New thread in Island survey' }).click()
    await chat.send('How many animals were in the quokka colony?')
    await chat.waitForReply('How many animals were in the quokka colony?', 'Echo:')
    const sent = JSON.stringify(h.standIn.requests.at(-1)?.body ?? {})
    expect(sent).toContain('quokka colony numbered 412 animals')
    expect(sent).toContain('Quote the survey when you can.')
    expect(sent.length).toBeLessThan(doc.length / 10)

    const exchange = chat.exchange('How many animals were in the quokka colony?')
    const saving = exchange.getByTestId('retrieval-saving')
    await saving.waitFor()
    expect(await saving.textContent()).toMatch(/\d passages? instead of 2\d\d,\d{3} characters/)
    await saving.click()
    await exchange.getByTestId('reply-source').first().getByText('412 animals').waitFor()
    // The new thread was made in the project.
    const listed = await (await page.context().request.get(`${h.server.url}/api/threads`)).json()
    const projects = await (await page.context().request.get(`${h.server.url}/api/projects`)).json()
    expect(listed.find((t: { title: string }) => t.title.startsWith('How many animals'))?.projectId).toBe(
      projects[0]?.id,
    )
    expect(unexpectedErrors()).toEqual([])
  })

  it('moves a thread into a project and out again', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const res = await page.context().request.post(`${h.server.url}/api/projects`, {
      data: { name: 'Recipes', instructions: '' },
    })
    expect(res.status()).toBe(201)
    const project = await res.json()
    const threads = page.getByRole('navigation', { name: 'Threads' })
    // The Default thread stays pinned: the thread moved is a new one.
    await threads.getByRole('button', { name: 'New thread', exact: true }).click()
    await chat.send('Pancakes for four')
    await chat.waitForReply('Pancakes for four', 'Echo:')
    await page.reload()
    await threads.getByRole('button', { name: /More actions for Pancakes for four/ }).click()
    await page.getByRole('menuitem', { name: 'Move to project' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Recipes' }).click()
    const listed = async () => {
      const r = await page.context().request.get(`${h.server.url}/api/threads`)
      return ((await r.json()) as { title: string; projectId?: string | null }[]).find((t) =>
        t.title.startsWith('Pancakes'),
      )?.projectId
    }
    await expect.poll(listed).toBe(project.id)
    await threads.getByRole('button', { name: /More actions for Pancakes for four/ }).click()
    await page.getByRole('menuitem', { name: 'Move to project' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'No project' }).click()
    await expect.poll(listed).toBeNull()
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('a document attached to one message', () => {
  it('is sent whole on its turn, and later turns send only its passages that match', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const composer = new ComposerControls(page)
    const parts: string[] = []
    for (let i = 0; i < 250; i++) {
      parts.push(
        `Section ${i}. The committee reviewed catering budgets and parking for the meeting in hall ${i}.`,
      )
      if (i === 120) parts.push('The lighthouse keeper recorded that the quokka colony numbered 412 animals.')
    }
    const doc = parts.join('\n\n')
    await composer.attachButton().click()
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('menuitem', { name: 'Upload file' }).click()
    await (await chooser).setFiles({ name: 'survey.txt', mimeType: 'text/plain', buffer: Buffer.from(doc) })
    await composer.chip().filter({ hasText: 'survey.txt' }).waitFor()
    await chat.send('Here are my survey notes')
    await chat.waitForReply('Here are my survey notes', 'Echo:')
    expect(JSON.stringify(h.standIn.requests.at(-1)?.body)).toContain('hall 249')

    await chat.send('How many animals were in the quokka colony?')
    await chat.waitForReply('How many animals were in the quokka colony?', 'Echo:')
    // What the person's turns and the system prompt carry (the stand-in's earlier reply echoes the
    // turn it answered, document included, which a model's reply would not).
    const body = h.standIn.requests.at(-1)?.body as { contents: { role: string; parts: unknown[] }[] }
    const sent = lastSystem() + JSON.stringify(body.contents.filter((c) => c.role === 'user'))
    expect(lastSystem()).toContain('quokka colony numbered 412 animals')
    expect(sent).not.toContain('hall 249')
    expect(sent.length).toBeLessThan(doc.length / 5)
    const saving = chat
      .exchange('How many animals were in the quokka colony?')
      .getByTestId('retrieval-saving')
    await saving.waitFor()
    expect(await saving.textContent()).toMatch(/1 passage instead of \d\d,\d{3} characters/)
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('temporary chat', () => {
  it('answers with the conversation so far and leaves no row in the database, while usage counts', async () => {
    // A server of its own on a data directory this test keeps, read once the server has stopped.
    const dataDir = mkdtempSync(join(tmpdir(), 'loris-e2e-temporary-'))
    const template = templateDataDir()
    if (isTemplate(template)) cpSync(template, dataDir, { recursive: true })
    const server = await startAppServer(aiProviderEnv(h.standIn), { dataDir })
    try {
      const tab = await h.browser.newPage(desktop)
      const chat = new ChatPage(tab.page, server.url)
      const email = `temporary-${Date.now()}@example.com`
      const res = await tab.context.request.post(`${server.url}/api/register`, {
        data: { email, password: 'a strong password' },
      })
      expect(res.status()).toBe(201)
      await chat.open()
      const threads = tab.page.getByRole('navigation', { name: 'Threads' })
      await threads.getByRole('button', { name: 'Temporary chat' }).click()
      const temporary = tab.page.getByTestId('temporary-chat')
      const box = temporary.getByLabel('Temporary message')
      await box.fill('Name two rivers in France')
      await box.press('Enter')
      // Each reply has ended (and been charged) before the next step.
      await temporary.locator('[data-testid="temporary-exchange"][data-done="true"]').first().waitFor()
      await temporary.getByTestId('temporary-reply').first().getByText('Echo:').waitFor()
      await box.fill('And a third one?')
      await box.press('Enter')
      await temporary.locator('[data-testid="temporary-exchange"][data-done="true"]').nth(1).waitFor()
      await temporary.getByTestId('temporary-reply').nth(1).getByText('Echo:').waitFor()
      // The second send carried the first exchange: the model saw it.
      expect(JSON.stringify(h.standIn.requests.at(-1)?.body)).toContain('Name two rivers in France')
      // Choosing a thread ends it: nothing of it is listed.
      await threads.getByRole('button', { name: 'Default', exact: true }).click()
      await temporary.waitFor({ state: 'detached' })
      await tab.context.close()
    } finally {
      await server.stop()
    }
    const db = new PGlite(join(dataDir, 'pglite'))
    try {
      const rows = await db.query<{
        email: string
        sent: number
        chars: number
        threads: number
        messages: number
      }>(
        `select u.email, u.sent_messages as sent, u.ai_input_chars as chars,
           (select count(*)::int from threads t where t.user_id = u.id and not t.is_default) as threads,
           (select count(*)::int from messages m where m.user_id = u.id) as messages
         from users u where u.email like 'temporary-%'`,
      )
      expect(rows.rows).toHaveLength(1)
      expect(rows.rows[0]).toMatchObject({ sent: 2, threads: 0, messages: 0 })
      expect(rows.rows[0]?.chars).toBeGreaterThan(0)
    } finally {
      await db.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('stops a reply being written, keeping what arrived, and ends the model call', async () => {
    const { page, unexpectedErrors } = await h.signedInChat(desktop)
    await page
      .getByRole('navigation', { name: 'Threads' })
      .getByRole('button', { name: 'Temporary chat' })
      .click()
    const temporary = page.getByTestId('temporary-chat')
    const box = temporary.getByLabel('Temporary message')
    await box.fill('Tell me slowly [[scenario:slow]]')
    await box.press('Enter')
    await temporary.getByTestId('temporary-reply').getByText('Echo:').waitFor()
    await temporary.getByRole('button', { name: 'Stop' }).click()
    await temporary.locator('[data-testid="temporary-exchange"][data-done="true"]').waitFor()
    expect(await temporary.getByTestId('temporary-reply').textContent()).toContain('Echo:')
    await expect.poll(() => h.standIn.abandoned()).toBeGreaterThan(0)
    await temporary.getByRole('button', { name: 'Send' }).waitFor()
    expect(unexpectedErrors()).toEqual([])
  })
})
