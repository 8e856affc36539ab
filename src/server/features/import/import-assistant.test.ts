// Everything a thread has, through a Loris export and back: a reply's sources and tool steps, the
// person's custom instructions, projects with their files, and which project each thread is in.
import { strToU8, unzipSync, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportedAssistantSchema, exportedThreadSchema } from '#contract/export.ts'
import { IMPORT_LIMITS, importReportSchema } from '#contract/import.ts'
import { messagePageSchema } from '#contract/messages.ts'
import { threadListSchema } from '#contract/threads.ts'
import { messages, threads } from '#server/db/schema/index.ts'
import { reshowThread } from '#server/features/chat/shown-branch.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { jsonBytes, lorisMessage, lorisThreadExport } from './loris-export-kit.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const SOURCES = [
  {
    url: 'https://lorises.example/habitat',
    title: 'Slender loris habitat survey',
    snippet: 'Forests of Sri Lanka.',
  },
  { url: 'https://news.example/zoo', title: 'Zoo welcomes twins' },
]
const STEPS = [
  { id: 'call-1', name: 'web_search', args: { query: 'slender loris' }, result: '2 results', status: 'done' },
]
const FIELD_NOTES = 'Slender lorises sleep curled in a ball.\n\nThey wake at dusk and hunt insects.'

async function importFile(cookie: string, bytes: Uint8Array, name: string) {
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  const res = await t.request('/api/import', { method: 'POST', cookie, body: form })
  expect(res.status).toBe(200)
  return importReportSchema.parse(await res.json())
}

const getJson = async (cookie: string, path: string) => (await t.request(path, { cookie })).json()

/** A person with instructions, a project holding a file and a thread whose reply has sources. */
async function personWithProject() {
  const { cookie, user } = await t.signUp()
  const instructions = { aboutMe: 'I keep lorises.', howToRespond: 'Briefly.', enabled: true }
  await t.request('/api/settings/instructions', { method: 'PUT', cookie, json: instructions })
  const project = await (
    await t.request('/api/projects', {
      method: 'POST',
      cookie,
      json: { name: 'Lorises', instructions: 'Answer as a zookeeper.' },
    })
  ).json()
  const form = new FormData()
  form.append('file', new File([FIELD_NOTES], 'field-notes.txt', { type: 'text/plain' }))
  const added = await t.request(`/api/projects/${project.id}/files`, { method: 'POST', cookie, body: form })
  expect(added.status).toBe(201)
  const [thread] = await t.deps.database.db
    .insert(threads)
    .values({ userId: user.id as string, title: 'Habitat', chatModel: 'gemini' })
    .returning()
  if (!thread) throw new Error('no thread')
  const moved = await t.request(`/api/threads/${thread.id}/project`, {
    method: 'PUT',
    cookie,
    json: { projectId: project.id },
  })
  expect(moved.status).toBe(200)
  await t.deps.database.db.insert(messages).values({
    userId: user.id as string,
    threadId: thread.id,
    content: 'Where do slender lorises live?',
    response: 'In the forests of Sri Lanka [1].',
    chatModel: 'gemini',
    status: 'complete',
    sources: SOURCES,
    toolSteps: STEPS,
  })
  await reshowThread(t.deps.database.db, thread.id)
  return { cookie, user, instructions, project, thread }
}

describe('a Loris export carries and restores everything a thread has', () => {
  it('exports sources, tool steps, instructions, projects with their files and memberships', async () => {
    const { cookie, instructions, project, thread } = await personWithProject()
    const single = exportedThreadSchema.parse(await getJson(cookie, `/api/threads/${thread.id}/export`))
    expect(single.thread.project).toEqual({ id: project.id, name: 'Lorises' })
    expect(single.messages[0]).toMatchObject({ sources: SOURCES, toolSteps: STEPS })

    const zip = unzipSync(new Uint8Array(await (await t.request('/api/export', { cookie })).arrayBuffer()))
    const assistant = exportedAssistantSchema.parse(
      JSON.parse(new TextDecoder().decode(zip['assistant.json'])),
    )
    expect(assistant.instructions).toEqual(instructions)
    expect(assistant.projects).toEqual([
      {
        id: project.id,
        name: 'Lorises',
        instructions: 'Answer as a zookeeper.',
        createdAt: project.createdAt,
        files: [expect.objectContaining({ name: 'field-notes.txt', mimeType: 'text/plain' })],
      },
    ])
    const path = assistant.projects[0]?.files[0]?.path as string
    expect(path).toMatch(/^files\/project-.+\.txt$/)
    expect(new TextDecoder().decode(zip[path])).toBe(FIELD_NOTES)
    const habitat = Object.keys(zip).find((name) => /^threads\/.*habitat\.json$/.test(name)) as string
    const exported = exportedThreadSchema.parse(JSON.parse(new TextDecoder().decode(zip[habitat])))
    expect(exported.thread.project).toEqual({ id: project.id, name: 'Lorises' })
  })

  it('an import into a fresh account restores them, and a second import adds nothing', async () => {
    const { cookie, instructions } = await personWithProject()
    const exported = new Uint8Array(await (await t.request('/api/export', { cookie })).arrayBuffer())

    const fresh = await t.signUp()
    const report = await importFile(fresh.cookie, exported, 'loris-data.zip')
    expect(report).toMatchObject({ source: 'loris', threadsImported: 2, projectsImported: 1, skipped: [] })
    expect(report.notes).toContain('1 project restored, 1 project file added')
    expect(report.notes).toContain('Your custom instructions were restored')
    expect(await getJson(fresh.cookie, '/api/settings/instructions')).toEqual(instructions)
    const projects = await getJson(fresh.cookie, '/api/projects')
    expect(projects).toEqual([
      expect.objectContaining({ name: 'Lorises', instructions: 'Answer as a zookeeper.' }),
    ])
    const files = await getJson(fresh.cookie, `/api/projects/${projects[0].id}/files`)
    expect(files).toEqual([expect.objectContaining({ name: 'field-notes.txt', chars: FIELD_NOTES.length })])
    const list = threadListSchema.parse(await getJson(fresh.cookie, '/api/threads'))
    const habitat = list.find((th) => th.title === 'Habitat')
    expect(habitat?.projectId).toBe(projects[0].id)
    const [message] = messagePageSchema.parse(
      await getJson(fresh.cookie, `/api/messages?threadId=${habitat?.id}`),
    ).items
    expect(message).toMatchObject({ sources: SOURCES, toolSteps: STEPS })

    const twice = await importFile(fresh.cookie, exported, 'loris-data.zip')
    expect(twice).toMatchObject({ threadsImported: 0, projectsImported: 0 })
    expect(await getJson(fresh.cookie, '/api/projects')).toHaveLength(1)
    expect(await getJson(fresh.cookie, `/api/projects/${projects[0].id}/files`)).toHaveLength(1)
  })

  it('joins a project of the same name the person has, and keeps their own instructions', async () => {
    const { cookie } = await personWithProject()
    const exported = new Uint8Array(await (await t.request('/api/export', { cookie })).arrayBuffer())
    const other = await t.signUp()
    const mine = { aboutMe: 'I am someone else.', howToRespond: '', enabled: false }
    await t.request('/api/settings/instructions', { method: 'PUT', cookie: other.cookie, json: mine })
    const own = await (
      await t.request('/api/projects', { method: 'POST', cookie: other.cookie, json: { name: 'Lorises' } })
    ).json()
    const report = await importFile(other.cookie, exported, 'loris-data.zip')
    expect(report).toMatchObject({ threadsImported: 2, projectsImported: 0 })
    expect(report.notes).toContain(
      'Your custom instructions here were kept: the ones in the export were not imported',
    )
    expect(await getJson(other.cookie, '/api/settings/instructions')).toEqual(mine)
    expect(await getJson(other.cookie, '/api/projects')).toEqual([
      expect.objectContaining({ id: own.id, instructions: '' }),
    ])
    expect(await getJson(other.cookie, `/api/projects/${own.id}/files`)).toHaveLength(1)
    const list = threadListSchema.parse(await getJson(other.cookie, '/api/threads'))
    expect(list.find((th) => th.title === 'Habitat')?.projectId).toBe(own.id)
  })

  it("a single thread's export joins its project by name, made when the person has none", async () => {
    const file = lorisThreadExport(
      'Night walk',
      [lorisMessage('2025-05-01T20:00:00.000Z', { sources: SOURCES })],
      {
        thread: { project: { id: 'p-1', name: 'Evenings' } },
      },
    )
    const { cookie } = await t.signUp()
    const report = await importFile(cookie, jsonBytes(file), 'night-walk.json')
    expect(report).toMatchObject({ threadsImported: 1, projectsImported: 1 })
    const [project] = await getJson(cookie, '/api/projects')
    expect(project).toMatchObject({ name: 'Evenings', instructions: '' })
    const list = threadListSchema.parse(await getJson(cookie, '/api/threads'))
    expect(list.find((th) => th.title === 'Night walk')?.projectId).toBe(project.id)
  })
})

describe('hostile sources, tool steps and projects', () => {
  const at = '2025-05-01T20:00:00.000Z'
  const thread = (title: string, fields: Record<string, unknown>) =>
    lorisThreadExport(title, [lorisMessage(at, fields)])

  it('skips a thread whose sources or tool steps are past the limits, saying why, and imports the rest', async () => {
    const { cookie } = await t.signUp()
    const many = Array.from({ length: IMPORT_LIMITS.maxSourcesPerMessage + 1 }, (_, i) => ({
      url: `https://e.example/${i}`,
      title: `Page ${i}`,
    }))
    const steps = Array.from({ length: IMPORT_LIMITS.maxToolStepsPerMessage + 1 }, (_, i) => ({
      id: `s${i}`,
      name: 'web_search',
      args: {},
      status: 'done',
    }))
    const files = {
      'threads/0001-a.json': jsonBytes(thread('Too many sources', { sources: many })),
      'threads/0002-b.json': jsonBytes(
        thread('Long title', { sources: [{ url: 'https://e.example', title: 'x'.repeat(501) }] }),
      ),
      'threads/0003-c.json': jsonBytes(thread('Too many steps', { toolSteps: steps })),
      'threads/0004-d.json': jsonBytes(
        thread('Huge arguments', {
          toolSteps: [{ id: 'a', name: 'mcp', args: { q: 'y'.repeat(20_001) }, status: 'done' }],
        }),
      ),
      'threads/0005-e.json': jsonBytes(thread('Bad source', { sources: [{ url: 42, title: 'n' }] })),
      'threads/0006-f.json': jsonBytes(
        thread('Waiting step', {
          toolSteps: [
            {
              id: 'w',
              name: 'mcp',
              args: null,
              status: 'awaiting-approval',
              approval: { messageId: 'exported-id', expiresAt: at },
            },
          ],
        }),
      ),
    }
    const report = await importFile(cookie, zipSync(files), 'hostile.zip')
    expect(report.threadsImported).toBe(1)
    expect(report.skipped).toEqual([
      {
        title: 'Too many sources',
        reason: `a reply with more than ${IMPORT_LIMITS.maxSourcesPerMessage} sources (messages.0.sources)`,
      },
      {
        title: 'Long title',
        reason: 'a source title longer than 500 characters (messages.0.sources.0.title)',
      },
      {
        title: 'Too many steps',
        reason: `a reply with more than ${IMPORT_LIMITS.maxToolStepsPerMessage} tool steps (messages.0.toolSteps)`,
      },
      {
        title: 'Huge arguments',
        reason: 'tool arguments longer than 20,000 characters (messages.0.toolSteps.0.args)',
      },
      { title: 'Bad source', reason: 'unexpected content (messages.0.sources.0.url)' },
    ])
    // A step that waited for a click can no longer get one: it comes back refused, its approval
    // (naming the exported message) left out.
    const list = threadListSchema.parse(await getJson(cookie, '/api/threads'))
    const waiting = list.find((th) => th.title === 'Waiting step')
    const [m] = messagePageSchema.parse(await getJson(cookie, `/api/messages?threadId=${waiting?.id}`)).items
    expect(m?.toolSteps).toEqual([{ id: 'w', name: 'mcp', args: null, status: 'refused' }])
  })

  it('leaves out a project or instructions not in the form of an export, with the reason, and restores the rest', async () => {
    const { cookie } = await t.signUp()
    const assistant = {
      format: 'loris-export',
      version: 3,
      instructions: { aboutMe: 'z'.repeat(1_501), howToRespond: '', enabled: true },
      projects: [
        { id: 'p1', name: 'Fine', instructions: '', createdAt: at, files: [] },
        { id: 'p2', name: 'n'.repeat(101), instructions: '', createdAt: at, files: [] },
        { id: 'p3', name: '   ', instructions: '', createdAt: at, files: [] },
        {
          id: 'p4',
          name: 'Missing file',
          instructions: '',
          createdAt: at,
          files: [{ name: 'gone.txt', path: 'files/gone.txt' }],
        },
      ],
    }
    const files = {
      'assistant.json': jsonBytes(assistant),
      'threads/0001-a.json': jsonBytes(thread('Plain', {})),
    }
    const report = await importFile(cookie, zipSync(files), 'assistant.zip')
    expect(report).toMatchObject({ threadsImported: 1, projectsImported: 2 })
    expect(report.notes).toEqual([
      'Your custom instructions were left out: an instruction longer than 1,500 characters (aboutMe)',
      `Project "${'n'.repeat(100)}" was left out: a project name longer than 100 characters (name)`,
      'Project "(unnamed)" was left out: a project without a name (name)',
      '2 projects restored, 0 project files added',
      '1 project file left out: not in the export, or refused by the project (a project keeps at most 50 documents)',
    ])
    const names = (await getJson(cookie, '/api/projects')).map((p: { name: string }) => p.name)
    expect(names).toEqual(['Fine', 'Missing file'])
  })

  it('refuses an assistant.json that is not an export and still imports the threads', async () => {
    const { cookie } = await t.signUp()
    const files = {
      'assistant.json': strToU8('[1, 2, 3]'),
      'threads/0001-a.json': jsonBytes(thread('Plain', {})),
    }
    const report = await importFile(cookie, zipSync(files), 'odd.zip')
    expect(report).toMatchObject({ threadsImported: 1, projectsImported: 0 })
    expect(report.skipped).toEqual([
      { title: 'assistant.json', reason: 'it is not the instructions and projects of a Loris export' },
    ])
  })
})
