// Projects: a name, instructions and files shared by the threads in it. Files are the knowledge
// feature's (composed in app.ts: `files`), membership of threads is here.
import { Hono } from 'hono'
import {
  deleteProjectQuery,
  type ProjectFile,
  projectBody,
  projectIdParam,
  threadProjectBody,
} from '#contract/assistant.ts'
import { threadIdParam } from '#contract/threads.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv, UserRow } from '#server/lib/context.ts'
import { readFormBody } from '#server/lib/read-body.ts'
import { requireUser } from '#server/lib/session.ts'
import { validate } from '#server/lib/validate.ts'
import {
  createProject,
  deleteProject,
  findProject,
  listProjects,
  missingProject,
  moveThread,
  projectJson,
  updateProject,
} from './queries.ts'

export interface ProjectFiles {
  add(user: UserRow, projectId: string, file: File, signal: AbortSignal): Promise<ProjectFile>
  list(projectId: string): Promise<ProjectFile[]>
}

export interface ProjectRouteOptions {
  files: ProjectFiles
  /** After threads were deleted with their project (app.ts: files no message uses any more go). */
  afterDelete?: (userId: string) => Promise<void>
}

export function projectsRoutes(deps: AppDeps, opts: ProjectRouteOptions) {
  const { db } = deps.database
  const auth = requireUser(deps)
  const owned = async (userId: string, id: string) => {
    const project = await findProject(db, userId, id)
    if (!project) throw missingProject()
    return project
  }
  return new Hono<AppEnv>()
    .get('/projects', auth, async (c) =>
      c.json((await listProjects(db, c.get('user').id)).map(projectJson), 200),
    )
    .post('/projects', auth, validate('json', projectBody), async (c) => {
      const project = await createProject(db, c.get('user').id, c.req.valid('json'))
      return c.json(projectJson(project), 201)
    })
    .put(
      '/projects/:id',
      auth,
      validate('param', projectIdParam),
      validate('json', projectBody),
      async (c) => {
        const project = await updateProject(
          db,
          c.get('user').id,
          c.req.valid('param').id,
          c.req.valid('json'),
        )
        if (!project) throw missingProject()
        return c.json(projectJson(project), 200)
      },
    )
    .delete(
      '/projects/:id',
      auth,
      validate('param', projectIdParam),
      validate('query', deleteProjectQuery),
      async (c) => {
        const userId = c.get('user').id
        const { id } = c.req.valid('param')
        const { threads } = c.req.valid('query')
        if (!(await deleteProject(db, userId, id, threads))) throw missingProject()
        if (threads === 'delete') await opts.afterDelete?.(userId)
        return c.json({ ok: true as const, id }, 200)
      },
    )
    .get('/projects/:id/files', auth, validate('param', projectIdParam), async (c) => {
      const project = await owned(c.get('user').id, c.req.valid('param').id)
      return c.json(await opts.files.list(project.id), 200)
    })
    .post('/projects/:id/files', auth, validate('param', projectIdParam), async (c) => {
      const user = c.get('user')
      const project = await owned(user.id, c.req.valid('param').id)
      if (!c.req.header('content-type')?.startsWith('multipart/form-data'))
        throw new AppError(
          'unsupported_media_type:body',
          'Send the file as a multipart form field named file',
        )
      const form = await readFormBody(c)
      const file = form.file
      if (!(file instanceof File))
        throw new AppError('bad_request:input', 'Attach the file as the form field named file')
      return c.json(await opts.files.add(user, project.id, file, c.req.raw.signal), 201)
    })
    .put(
      '/threads/:id/project',
      auth,
      validate('param', threadIdParam),
      validate('json', threadProjectBody),
      async (c) => {
        const { id } = c.req.valid('param')
        const { projectId } = c.req.valid('json')
        await moveThread(db, c.get('user').id, id, projectId)
        return c.json({ ok: true as const, id, projectId }, 200)
      },
    )
}
