// Builds the HTTP app from feature sub-apps. No listening here: main.ts serves it, tests call
// app.request(). Add a feature by routing its sub-app in `apiRoutes`.
import { Hono } from 'hono'
import { requestId } from 'hono/request-id'
import { routePath } from 'hono/route'
import { IMPORT_LIMITS } from '#contract/import.ts'
import { publicOrigin } from './env.ts'
import { instructionsRoutes, instructionsText } from './features/account/instructions.ts'
import { type AccountHooks, accountRoutes, deleteAccount } from './features/account/routes.ts'
import { adminRoutes } from './features/admin/routes.ts'
import { createAttachments } from './features/attachments/attachments.ts'
import { sharedParsePool } from './features/attachments/parse-pool.ts'
import { sandboxUploads } from './features/attachments/routes.ts'
import { authRoutes } from './features/auth/routes.ts'
import { cancelSubscriptionForUser } from './features/billing/cancel-subscription.ts'
import { billingRoutes } from './features/billing/routes.ts'
import { chatVisitFor } from './features/chat/chat-visit.ts'
import { GenerationRegistry } from './features/chat/generation.ts'
import type { PromptContextSource } from './features/chat/prompt-context.ts'
import { chatRoutes } from './features/chat/routes.ts'
import { exportRoutes } from './features/export/routes.ts'
import { googleAuthRoutes } from './features/google-auth/routes.ts'
import { impactRoutes } from './features/impact/routes.ts'
import { importRoutes } from './features/import/routes.ts'
import { createKnowledge, KNOWLEDGE_TEXT_BUDGET } from './features/knowledge/knowledge.ts'
import { metricsRoutes } from './features/metrics/routes.ts'
import { projectInstructionsText, sendSetup } from './features/projects/queries.ts'
import { projectsRoutes } from './features/projects/routes.ts'
import { searchRoutes } from './features/search/routes.ts'
import { shareHeadFor, sharingRoutes } from './features/sharing/routes.ts'
import { systemRoutes } from './features/system/routes.ts'
import { threadsRoutes } from './features/threads/routes.ts'
import { createReplyLookup } from './features/tools/reply-lookup.ts'
import { transcriptionBudget } from './features/voice/budget.ts'
import { voiceRoutes } from './features/voice/routes.ts'
import { createTranscriber } from './features/voice/transcriber.ts'
import { waitlistRoutes } from './features/waitlist/routes.ts'
import { AppError } from './lib/app-error.ts'
import { limitBody } from './lib/body-limit.ts'
import { compression } from './lib/compression.ts'
import type { AppDeps, AppEnv } from './lib/context.ts'
import { errorBody, toErrorResponse } from './lib/on-error.ts'
import { publicAddresses, publicHostOnly, sameOrigin } from './lib/same-origin.ts'
import { noStoreUnlessChosen, securityHeaders } from './lib/security-headers.ts'
import { serveClient } from './lib/serve-client.ts'
import { countRequest } from './lib/telemetry/metrics.ts'
import { metricsEndpoint } from './lib/telemetry/metrics-route.ts'
import type { Tracing } from './lib/telemetry/tracing.ts'
import { watchOperations } from './watch-operations.ts'

const JSON_LIMIT = 1024 * 1024
// Largest upload (audio, 25 MB) plus room for the other form fields.
const MULTIPART_LIMIT = 26 * 1024 * 1024

function apiRoutes(deps: AppDeps) {
  const transcriber = createTranscriber(deps.env, { log: deps.log })
  // A recording sent with a message spends the same budget as one sent to /api/transcribe.
  const budget = transcriptionBudget(deps.database.db, transcriber.transcribe)
  const attachments = createAttachments(deps, { transcribe: budget.transcribe })
  const intake: typeof attachments.intake = (user, file, content, signal) =>
    budget.forUser(user.id, file, () => attachments.intake(user, file, content, signal))
  // What replies may look up: web search, links read in the parse pool, MCP tools (decision 065).
  const lookup = createReplyLookup(deps.env, { log: deps.log, readPage: attachments.readPage })
  // Its MCP sessions end with the process, once the replies still generating are stored.
  deps.background?.closeAtStop(() => lookup.close())
  // This node's replies.
  const generations = new GenerationRegistry(deps.background)
  // After a person deletes threads or clears their history: the files no message uses any more go.
  const afterDeletes = (userId: string) => attachments.afterDelete(userId)
  const accountHooks: AccountHooks = {
    beforeDelete: [cancelSubscriptionForUser],
    // The account's files go once its uploads rows are gone.
    afterDelete: [(_, { userId, storageKeys }) => attachments.afterDelete(userId, storageKeys)],
  }
  const { db } = deps.database
  // A project file is read once, in the parse pool under its limits, keeping more of its text
  // than a message's attachment: only the passages that match a message are ever sent.
  const knowledge = createKnowledge(db, async (bytes, fileName) => {
    const { sniffed, extracted } = await sharedParsePool().inspect(bytes, fileName, KNOWLEDGE_TEXT_BUDGET)
    if (sniffed.kind !== 'document' || !extracted)
      throw new AppError(
        'unsupported_media_type:project_file',
        'A project keeps documents (PDF, Word, text, spreadsheets…), not images or audio',
      )
    return { text: extracted.text, mimeType: sniffed.mimeType, truncated: extracted.truncated }
  })
  // What a send's prompt carries besides the thread: the person's instructions, its project's,
  // and the passages of the project's files that match the message.
  const context: PromptContextSource = async (userId, at, query) => {
    const { instructions, project } = await sendSetup(db, userId, at)
    const personal = instructions ? instructionsText(instructions) : ''
    const retrieved = project ? await knowledge.retrieve(project.id, query) : { passages: [], filesChars: 0 }
    return {
      instructions: [personal, project ? projectInstructionsText(project) : ''],
      ...retrieved,
    }
  }
  const projectFiles = {
    add: (user: { id: string }, projectId: string, file: File) => knowledge.add(user.id, projectId, file),
    list: (projectId: string) => knowledge.list(projectId),
  }
  return new Hono<AppEnv>()
    .route('/', authRoutes(deps))
    .route('/', systemRoutes(deps))
    .route('/', threadsRoutes(deps, { afterDelete: afterDeletes }))
    .route(
      '/',
      chatRoutes(deps, { generations, attachments: intake, afterClear: afterDeletes, lookup, context }),
    )
    .route('/', instructionsRoutes(deps))
    .route('/', projectsRoutes(deps, { files: projectFiles, afterDelete: afterDeletes }))
    .route('/', attachments.routes())
    .route('/', voiceRoutes(deps, transcriber))
    .route('/', billingRoutes(deps))
    .route('/', impactRoutes(deps))
    .route('/', metricsRoutes(deps))
    .route('/', accountRoutes(deps, accountHooks))
    .route(
      '/',
      adminRoutes(deps, { deleteAccount: (user, log) => deleteAccount(deps, accountHooks, user, log) }),
    )
    .route('/', waitlistRoutes(deps))
    .route('/', searchRoutes(deps))
    .route('/', sharingRoutes(deps, { storage: attachments.storage }))
    .route('/', exportRoutes(deps, { storage: attachments.storage }))
    .route('/', importRoutes(deps, { storage: attachments.storage }))
}

export type AppType = ReturnType<typeof apiRoutes>

export function createApp(
  deps: AppDeps,
  opts: { clientDir?: string; tracing?: Pick<Tracing, 'middleware'> | null } = {},
) {
  const app = new Hono<AppEnv>()
  watchOperations(deps)
  // One trace per request, around everything else (only with OTEL_EXPORTER_OTLP_ENDPOINT).
  if (opts.tracing) app.use(opts.tracing.middleware)
  app.use(requestId())
  app.use(async (c, next) => {
    const log = deps.log.child({ reqId: c.get('requestId') })
    c.set('log', log)
    const started = performance.now()
    await next()
    // By the pattern of the route that answered (after next(), routePath names it), never the
    // path itself: one series per route, not per thread id.
    countRequest(routePath(c) || 'none', c.req.method, c.res.status, (performance.now() - started) / 1000)
    if (c.req.path.startsWith('/api') || c.res.status >= 500) {
      log.info(
        {
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      )
    }
  })
  const addresses = publicAddresses(deps.env)
  // Before any work: a request for another host is a page that rebound its name to this machine.
  // A health probe names the node's own address (a load balancer's, Kubernetes').
  app.use(
    publicHostOnly(
      addresses,
      deps.env.TRUST_PROXY,
      (method, path) => (method === 'GET' || method === 'HEAD') && path === '/api/health',
    ),
  )
  // Outside the security headers: served files get a sandbox CSP of their own.
  app.use('/api/uploads/*', sandboxUploads)
  app.use('/api/shares/:token/files/*', sandboxUploads)
  app.use(securityHeaders())
  app.use(compression())
  app.use('/api/*', noStoreUnlessChosen)
  app.use('/api/*', async (c, next) => {
    const multipart = c.req.header('content-type')?.startsWith('multipart/form-data')
    // An import file may be larger than any upload; the form adds little.
    const importing = multipart && c.req.path === '/api/import'
    // An import's body is read by its route under a pace and this limit (readFormFile), also
    // when it comes without a declared length: not read whole here first, at any speed.
    if (importing && c.req.header('content-length') === undefined) return next()
    const limit = importing
      ? IMPORT_LIMITS.maxFileBytes + 64 * 1024
      : multipart
        ? MULTIPART_LIMIT
        : JSON_LIMIT
    return limitBody(c, next, {
      maxSize: limit,
      onError: () => {
        throw new AppError(
          'payload_too_large:body',
          `The request is too large (limit ${importing ? `${IMPORT_LIMITS.maxFileBytes / 1024 / 1024} MB for an import` : multipart ? '25 MB for files' : '1 MB'})`,
          // The rest of the body is not read, so the connection cannot carry another request:
          // said, so a client does not send its next one on it (it would find it closed).
          { headers: { Connection: 'close' } },
        )
      },
    })
  })
  app.use(
    '*',
    sameOrigin(addresses, (p) => p === '/api/stripe/webhook'),
  )
  app.route('/api', apiRoutes(deps))
  // Google sign-in is a browser navigation, outside /api (spec section 7).
  app.route('/auth', googleAuthRoutes(deps))
  // Prometheus, outside /api (decision 061).
  app.get('/metrics', metricsEndpoint(deps.env))
  app.all('/api/*', (c) =>
    c.json(errorBody('not_found:route', `No API route ${c.req.method} ${c.req.path}`), 404),
  )
  // Anything else (a wrong method on /auth/google, say) gets the same JSON shape, not Hono's text.
  app.notFound((c) => c.json(errorBody('not_found:route', `No route ${c.req.method} ${c.req.path}`), 404))
  app.onError(toErrorResponse)
  if (opts.clientDir)
    serveClient(app, opts.clientDir, publicOrigin(deps.env), {
      shareHead: shareHeadFor(deps),
      chatVisit: chatVisitFor(deps),
    })
  return app
}
