// Parses an import file off the main thread: a ChatGPT data export (conversations.json
// or the zip holding it) or a Loris export (the data zip or one thread's JSON). Plain JavaScript so
// the same file runs under the tests, tsx and the bundled server (Node 20 runs no TypeScript in a
// worker). Everything is read as a stream: the zip with fflate's Unzip, the JSON with
// @streamparser/json, one conversation at a time. The main thread validates what it receives.
//
// The file is read twice (decision 046). The first pass (the survey) posts nothing: it counts the
// entries against limits.maxThreads, checks every other limit of the file and finds the files
// Loris threads name, so a file past a limit is refused before anything is stored. The second
// pass posts what it reads in batches, and waits after each until the main thread has stored it:
// the main thread holds one batch at a time, however large the file.
import { parentPort, workerData } from 'node:worker_threads'
import { JSONParser, TokenType } from '@streamparser/json'
import { Unzip, UnzipInflate } from 'fflate'

const { bytes, byteOffset, byteLength, limits, control, fileArea } = workerData
const data = new Uint8Array(bytes, byteOffset ?? 0, byteLength ?? bytes.byteLength)
/** Where a file named by the threads is unpacked, shared with the main thread: one at a time. */
const fileBytes = new Uint8Array(fileArea)
/** [0]: batches the main thread has taken in (it adds one and notifies); [1]: 1 when it stops. */
const acks = new Int32Array(control)
const CHUNK = 64 * 1024
/**
 * What a zip is fed at a time: fflate inflates a piece whole, and deflate packs up to about a
 * thousand times, so a piece unpacks to at most about 8 MB however the zip was made.
 */
const ZIP_CHUNK = 8 * 1024
/** A batch is posted when it holds this many entries or about this many bytes of text. */
const BATCH_ENTRIES = 200
const BATCH_BYTES = 1024 * 1024
/**
 * The deepest a value may nest (a conversation and everything in it, counted from the file's top):
 * an export nests about ten levels. A deeper one could not be passed to the main thread (the
 * structured clone gives up on it) and is skipped with a reason.
 */
const MAX_DEPTH = 64
let unzipped = 0

class Refused extends Error {}

/** 'survey' (the first pass: count and check, post nothing) or 'emit'. */
let mode = 'survey'
const post = (message, transfer) => parentPort.postMessage(message, transfer)
/** Paths (files/...) the attachments of emitted Loris messages name: the only files read. */
const referenced = new Set()
/** Bytes of files posted so far; past limits.maxFilesBytes the rest are left out. */
let filesBytes = 0
/** Conversations and threads met, imported or skipped: limits.maxThreads bounds them all. */
let entries = 0

/** In place of a long thread's messages: they were posted before it ('messages'). */
const MESSAGES_POSTED = 'posted before'

let batch = { threads: [], skipped: [] }
let batchBytes = 0
let posted = 0

/** Posts a message and waits until the main thread has taken it in (or stops this worker). */
function postAndWait(message, transfer) {
  post(message, transfer)
  posted++
  for (let seen = Atomics.load(acks, 0); seen < posted; seen = Atomics.load(acks, 0)) {
    if (Atomics.load(acks, 1) === 1) throw new Refused('stopped')
    Atomics.wait(acks, 0, seen, 1000)
  }
}

/** Posts the batch and waits until the main thread has stored it. */
function flush() {
  if (batch.threads.length === 0 && batch.skipped.length === 0) return
  const message = { type: 'batch', ...batch }
  batch = { threads: [], skipped: [] }
  batchBytes = 0
  postAndWait(message)
}

function add(kind, item, size) {
  batch[kind].push(item)
  batchBytes += size
  if (batch.threads.length + batch.skipped.length >= BATCH_ENTRIES || batchBytes >= BATCH_BYTES) flush()
}

function countEntry() {
  entries++
  if (entries > limits.maxThreads)
    throw new Refused(
      `The file holds more than ${limits.maxThreads.toLocaleString('en-US')} conversations (counting those that cannot be imported): Loris imports at most ${limits.maxThreads.toLocaleString('en-US')} from one file`,
    )
}

/** An entry of the file left out, with why. */
function skip(title, reason) {
  countEntry()
  if (mode === 'emit') add('skipped', { title, reason }, title.length + reason.length)
}

/** A file of the zip left out, with why (not an entry: it does not count against maxThreads). */
function skipFile(name, reason) {
  if (mode === 'emit') add('skipped', { title: name, reason }, name.length + reason.length)
}

/** A thread this long goes to the main thread a slice of messages at a time (MESSAGE_SLICE). */
const LONG_THREAD_BYTES = BATCH_BYTES
const MESSAGE_SLICE = 500

/**
 * About what a value costs to pass to the main thread: its strings' lengths and a little for each
 * other part, counted until `budget` (a value as large as that is posted in a slice of its own).
 */
function sizeOf(value, budget = LONG_THREAD_BYTES) {
  let size = 0
  const stack = [value]
  while (stack.length > 0 && size < budget) {
    const v = stack.pop()
    if (typeof v === 'string') size += v.length
    else if (v !== null && typeof v === 'object') {
      size += 16
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child)
    } else size += 8
  }
  return size
}

function emitThread(thread) {
  countEntry()
  if (mode !== 'emit') return
  let size = 0
  for (const m of thread.messages)
    size +=
      200 +
      (typeof m.content === 'string' ? m.content.length : 0) +
      (typeof m.response === 'string' ? m.response.length : 0) +
      (m.sources ? sizeOf(m.sources) : 0) +
      (m.toolSteps ? sizeOf(m.toolSteps) : 0)
  if (size < LONG_THREAD_BYTES) return add('threads', thread, size)
  // One message of 10 MB would hold the main thread while it is taken in (the structured clone
  // is read whole): its messages go first in slices, then the thread, alone in its batch.
  flush()
  for (let at = 0; at < thread.messages.length; at += MESSAGE_SLICE)
    post({ type: 'messages', messages: thread.messages.slice(at, at + MESSAGE_SLICE) })
  add('threads', { ...thread, messages: MESSAGES_POSTED }, 0)
  flush()
}

// ---- ChatGPT -------------------------------------------------------------------------------

// An export is a person's file, and may have been edited or damaged: every value is checked for
// its shape before it is read, so one odd entry costs that entry (or its conversation), never
// the file (decision 040).
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const NOT_CHATGPT = 'not in the form of a ChatGPT export (the file may have been edited or damaged)'

// A time past what a Date holds is no time (toISOString would throw and fail the whole file); one
// a Date holds but the database does not is refused by the main thread's schema, for that thread.
function seconds(v) {
  const at = typeof v === 'number' ? new Date(v * 1000) : null
  return at && Number.isFinite(at.getTime()) ? at.toISOString() : null
}

/**
 * A message's text. Parts that are objects are ChatGPT's pictures and other attachments (left
 * out, said in a note); a part that is neither (a number, null), parts that are not a list or a
 * text that is not a string are not ChatGPT's, counted as unreadable.
 */
function textOf(content) {
  if (Array.isArray(content.parts)) {
    const texts = content.parts.filter((p) => typeof p === 'string')
    const dropped = content.parts.filter(isObject).length
    const unreadable = content.parts.length - texts.length - dropped
    return { text: texts.join('\n\n').trim(), dropped, unreadable }
  }
  if (typeof content.text === 'string') return { text: content.text.trim(), dropped: 0, unreadable: 0 }
  if (content.parts !== undefined || content.text !== undefined)
    return { text: '', dropped: 0, unreadable: 1 }
  // Another kind of content (code output, a browsing result): not text a person wrote or read.
  return { text: '', dropped: 1, unreadable: 0 }
}

/**
 * The current branch, root first: from current_node up through the parents. A node that is not
 * an object ends the walk and is counted as unreadable; with no readable current node, the
 * branch ends at the last leaf by time.
 */
function currentBranch(conv) {
  const mapping = isObject(conv.mapping) ? conv.mapping : {}
  const nodeAt = (id) => (typeof id === 'string' && Object.hasOwn(mapping, id) ? mapping[id] : undefined)
  // No mapping is a conversation without messages; one that is not an object holds none we can read.
  let unreadable = conv.mapping === undefined || conv.mapping === null || isObject(conv.mapping) ? 0 : 1
  let id = conv.current_node
  if (nodeAt(id) !== undefined && !isObject(nodeAt(id))) unreadable++
  if (!isObject(nodeAt(id))) {
    const readable = (n) => isObject(n) && isObject(n.message)
    const time = (n) => (typeof n.message.create_time === 'number' ? n.message.create_time : 0)
    const leaves = Object.entries(mapping)
      .filter(
        ([, n]) => readable(n) && !(Array.isArray(n.children) && n.children.some((c) => readable(nodeAt(c)))),
      )
      .sort(([, a], [, b]) => time(a) - time(b))
    id = leaves.at(-1)?.[0]
  }
  const path = []
  const seen = new Set()
  while (nodeAt(id) !== undefined && !seen.has(id)) {
    seen.add(id)
    const node = nodeAt(id)
    if (!isObject(node)) {
      unreadable++
      break
    }
    path.push(node)
    id = node.parent
  }
  return { nodes: path.reverse(), unreadable }
}

function chatgptThread(conv) {
  const title =
    typeof conv.title === 'string' && conv.title.trim()
      ? conv.title.trim().slice(0, 120)
      : 'Imported conversation'
  const id = conv.conversation_id ?? conv.id
  if (typeof id !== 'string' || !id) return skip(title, 'the conversation has no id')
  const branch = currentBranch(conv)
  const exchanges = []
  let dropped = 0
  let unreadable = branch.unreadable
  let otherBranches = 0
  for (const node of Object.values(isObject(conv.mapping) ? conv.mapping : {}))
    if (Array.isArray(node?.children) && node.children.length > 1) otherBranches += node.children.length - 1
  for (const node of branch.nodes) {
    const m = node.message
    // No message is ChatGPT's own root node; anything else that is not an object is not its.
    if (m === null || m === undefined) continue
    if (!isObject(m) || !isObject(m.author) || typeof m.author.role !== 'string') {
      unreadable++
      continue
    }
    const role = m.author.role
    // The system's and tools' messages are not part of the conversation a person sees.
    if (role !== 'user' && role !== 'assistant') continue
    if (!isObject(m.content)) {
      unreadable++
      continue
    }
    const metadata = isObject(m.metadata) ? m.metadata : {}
    if (metadata.is_visually_hidden_from_conversation) continue
    const { text, dropped: d, unreadable: u } = textOf(m.content)
    dropped += d
    unreadable += u
    if (!text) continue
    const at = seconds(m.create_time) ?? seconds(conv.create_time) ?? new Date(0).toISOString()
    if (role === 'user') {
      exchanges.push({ content: text, response: '', modelId: null, createdAt: at, completedAt: null })
    } else {
      // Replies in a row belong to the same exchange; a reply with no question before it (a
      // greeting) gets an exchange of its own with no text from the person.
      let last = exchanges.at(-1)
      if (!last) {
        last = { content: '', response: '', modelId: null, createdAt: at, completedAt: null }
        exchanges.push(last)
      }
      last.response = last.response ? `${last.response}\n\n${text}` : text
      last.modelId = typeof metadata.model_slug === 'string' ? metadata.model_slug : last.modelId
      last.completedAt = at
    }
  }
  if (exchanges.length === 0 && unreadable > 0)
    return skip(title, `none of its messages could be read: they are ${NOT_CHATGPT}`)
  if (exchanges.length === 0) return skip(title, 'no text messages')
  if (exchanges.length > limits.maxMessagesPerThread)
    return skip(title, `more than ${limits.maxMessagesPerThread} messages`)
  emitThread({
    source: `chatgpt:${id}`,
    title,
    chatModel: 'chatgpt',
    isFavorite: false,
    isDefault: false,
    createdAt: seconds(conv.create_time) ?? exchanges[0].createdAt,
    lastMessageAt: seconds(conv.update_time) ?? exchanges.at(-1).createdAt,
    notes: { droppedParts: dropped, otherBranches, unreadable },
    messages: exchanges.map((e) => ({
      // Written by the person, but sent to ChatGPT, not here: it plants no tree (decision 012).
      origin: 'import',
      content: e.content,
      response: e.response,
      chatModel: 'chatgpt',
      provider: e.modelId ? 'openai' : null,
      modelId: e.modelId,
      status: 'complete',
      errorMessage: null,
      inputTokens: null,
      outputTokens: null,
      latencyMs: null,
      co2Impact: null,
      createdAt: e.createdAt,
      completedAt: e.completedAt,
      attachment: null,
    })),
  })
}

/**
 * Reads one conversation or thread with `read`. An error it did not foresee (a shape no check
 * above caught) skips that one with `reason`: thrown, it would end the whole file with a message
 * that blames the file's format. A limit of the file (Refused) still ends it.
 */
function oneDocument(read, doc, reason) {
  try {
    read(doc)
  } catch (err) {
    if (err instanceof Refused) throw err
    if (process.env.LORIS_IMPORT_DEBUG) console.error(err)
    skip(titleOf(doc), reason)
  }
}

/** The title a skipped conversation or thread is listed under. */
function titleOf(doc) {
  const title = isObject(doc)
    ? (doc.title ?? (isObject(doc.thread) ? doc.thread.title : undefined))
    : undefined
  return typeof title === 'string' && title.trim() ? title.trim().slice(0, 120) : '(unknown)'
}

const TOO_DEEP = `it nests more than ${MAX_DEPTH} levels deep, which no export does`

/**
 * A JSON parser of `paths` whose values nest at most MAX_DEPTH deep: a deeper part is dropped as
 * it is read (the token parser gets a null in its place, so it never builds it) and `onValue` is
 * told the value was too deep.
 */
function boundedParser(paths, onValue, opts = {}) {
  const parser = new JSONParser({ paths, keepStack: false, ...opts })
  const forward = parser.tokenizer.onToken
  let depth = 0
  /** The depth at which a dropped part opened; 0 when none is being dropped. */
  let droppingFrom = 0
  let tooDeep = false
  parser.tokenizer.onToken = (token) => {
    const t = token.token
    const opens = t === TokenType.LEFT_BRACE || t === TokenType.LEFT_BRACKET
    const closes = t === TokenType.RIGHT_BRACE || t === TokenType.RIGHT_BRACKET
    if (opens) depth++
    if (droppingFrom) {
      if (closes && depth === droppingFrom) droppingFrom = 0
      if (closes) depth--
      return
    }
    if (opens && depth > MAX_DEPTH) {
      droppingFrom = depth
      tooDeep = true
      forward({ token: TokenType.NULL, value: null, offset: token.offset })
      return
    }
    if (closes) depth--
    forward(token)
  }
  parser.onValue = ({ value }) => {
    const deep = tooDeep
    tooDeep = false
    onValue(value, deep)
  }
  return parser
}

function conversationsParser() {
  return boundedParser(
    ['$.*'],
    (value, tooDeep) => {
      if (!isObject(value)) skip('(unknown)', 'not a conversation')
      else if (tooDeep) skip(titleOf(value), TOO_DEEP)
      else oneDocument(chatgptThread, value, `it could not be read: it is ${NOT_CHATGPT}`)
    },
    { stringBufferSize: 0 },
  )
}

// ---- Loris ---------------------------------------------------------------------------------

function lorisThread(doc) {
  const t = doc?.thread
  if (
    doc?.format !== 'loris-export' ||
    !isObject(t) ||
    typeof t.id !== 'string' ||
    !Array.isArray(doc.messages)
  )
    return skip(titleOf(doc), 'not a Loris thread export')
  if (doc.messages.length > limits.maxMessagesPerThread)
    return skip(titleOf(doc), `more than ${limits.maxMessagesPerThread} messages`)
  for (const m of doc.messages) if (typeof m?.attachment?.path === 'string') referenced.add(m.attachment.path)
  emitThread({
    source: `loris:${t.id}`,
    title: t.title,
    chatModel: t.chatModel,
    isFavorite: t.isFavorite === true,
    isDefault: t.isDefault === true,
    createdAt: t.createdAt,
    lastMessageAt: t.lastMessageAt,
    notes: { droppedParts: 0, otherBranches: 0, unreadable: 0 },
    // Its project (export format 3): matched with assistant.json's by id, else by name.
    project: isObject(t.project)
      ? { key: typeof t.project.id === 'string' ? t.project.id : null, name: t.project.name }
      : null,
    messages: doc.messages.map((m) => ({
      // Versions (export format 2); a format 1 export has none and reads as one chain.
      key: typeof m.id === 'string' ? m.id : null,
      parentKey: typeof m.parentId === 'string' ? m.parentId : null,
      origin: m.origin ?? null,
      selectedAt: m.selectedAt ?? null,
      content: m.content,
      response: m.response,
      chatModel: m.chatModel,
      provider: m.provider ?? null,
      modelId: m.modelId ?? null,
      status: m.status === 'streaming' ? 'interrupted' : m.status,
      errorMessage: m.errorMessage ?? null,
      inputTokens: m.inputTokens ?? null,
      outputTokens: m.outputTokens ?? null,
      latencyMs: m.latencyMs ?? null,
      co2Impact: m.co2Impact ?? null,
      createdAt: m.createdAt,
      completedAt: m.completedAt ?? null,
      attachment: m.attachment ?? null,
      // What the reply drew on and the tools it called (export format 2 and later).
      sources: m.sources ?? [],
      toolSteps: m.toolSteps ?? [],
    })),
  })
}

/**
 * assistant.json of a Loris data export (the instructions and projects), read in the survey: the
 * text files its projects name are read with the files, and it is posted before any thread, so
 * the threads' projects exist when they are stored. The main thread validates it.
 */
let assistant = null
/** Why assistant.json was left out, said as a skipped entry of the emitting pass. */
let assistantRefused = null

function assistantParser() {
  return boundedParser(['$'], (doc, tooDeep) => {
    if (tooDeep) assistantRefused = TOO_DEEP
    else if (!isObject(doc) || doc.format !== 'loris-export')
      assistantRefused = 'it is not the instructions and projects of a Loris export'
    else lorisAssistant(doc)
  })
}

function lorisAssistant(doc) {
  const projects = Array.isArray(doc.projects) ? doc.projects.slice(0, limits.maxProjects + 1) : []
  for (const p of projects)
    if (isObject(p) && Array.isArray(p.files))
      for (const f of p.files) if (typeof f?.path === 'string') referenced.add(f.path)
  assistant = { instructions: doc.instructions ?? null, projects }
}

function lorisParser() {
  return boundedParser(['$'], (value, tooDeep) => {
    if (tooDeep) skip(titleOf(value), TOO_DEEP)
    else oneDocument(lorisThread, value, 'not a Loris thread export')
  })
}

// ---- Input ---------------------------------------------------------------------------------

/** The parser stops by itself after a complete document; end() then only checks a cut-off one. */
function finish(parser) {
  if (!parser.isEnded) parser.end()
}

function feed(bytesIn, write, chunk = CHUNK) {
  for (let at = 0; at < bytesIn.length; at += chunk)
    write(bytesIn.subarray(at, at + chunk), at + chunk >= bytesIn.length)
}

function parseJson(bytesIn) {
  const first = bytesIn.find(
    (b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf,
  )
  if (first === 0x5b /* [ */) {
    const parser = conversationsParser()
    feed(bytesIn, (chunk) => parser.write(chunk))
    finish(parser)
    return 'chatgpt'
  }
  if (first === 0x7b /* { */) {
    const parser = lorisParser()
    feed(bytesIn, (chunk) => parser.write(chunk))
    finish(parser)
    return 'loris'
  }
  throw new Refused('The file is neither a ChatGPT export nor a Loris export')
}

/**
 * A file of a Loris export that a message names (each is at most the upload limit), unpacked into
 * the area shared with the main thread, which writes it to storage before this worker reads on:
 * one file at a time is held, in the same memory for every file. The files together get a budget
 * (maxFilesBytes), so one import cannot fill the storage with what no person uploaded. A file past
 * it is left out, not the import refused: the conversations are what a person imports for, an
 * export cannot be made smaller by hand, and the report says how many files are missing. Posted
 * as 'fileLeftOut' so the report can say why.
 */
function readFile(file) {
  let size = 0
  let leftOut = false
  file.ondata = (err, chunk, final) => {
    if (err) throw new Refused(`The zip is damaged (${file.name})`)
    unzipped += chunk.length
    size += chunk.length
    if (unzipped > limits.maxUnzippedBytes)
      throw new Refused(
        `The file unpacks to more than ${Math.round(limits.maxUnzippedBytes / 1024 / 1024)} MB`,
      )
    if (leftOut) return
    if (size > limits.maxFileBytesInZip) {
      skipFile(file.name, 'the file is larger than an upload may be')
      leftOut = true
      return
    }
    if (filesBytes + size > limits.maxFilesBytes) {
      post({ type: 'fileLeftOut', path: file.name })
      leftOut = true
      return
    }
    fileBytes.set(chunk, size - chunk.length)
    if (final) {
      filesBytes += size
      postAndWait({ type: 'file', path: file.name, size })
    }
  }
  file.start()
}

/** The threads (or conversations) of a zip, with the limits of what it unpacks to. */
function readZipThreads(bytesIn) {
  let kind = null
  const unzip = new Unzip()
  unzip.register(UnzipInflate)
  // An entry not started is skipped without being inflated.
  unzip.onfile = (file) => {
    const name = file.name
    // The instructions and projects are read once, in the survey (lorisAssistant).
    const isAssistant = name === 'assistant.json'
    const isConversations = /(^|\/)conversations\.json$/.test(name)
    const isLorisThread = /^threads\/[^/]+\.json$/.test(name)
    if (isAssistant ? mode !== 'survey' : !isConversations && !isLorisThread) return
    if (!isAssistant) kind = isConversations ? 'chatgpt' : 'loris'
    const parser = isAssistant ? assistantParser() : isConversations ? conversationsParser() : lorisParser()
    let entryBytes = 0
    file.ondata = (err, chunk, final) => {
      if (err) throw new Refused(`The zip is damaged (${name})`)
      unzipped += chunk.length
      entryBytes += chunk.length
      if (unzipped > limits.maxUnzippedBytes)
        throw new Refused(
          `The file unpacks to more than ${Math.round(limits.maxUnzippedBytes / 1024 / 1024)} MB`,
        )
      if ((isLorisThread || isAssistant) && entryBytes > limits.maxThreadBytes) {
        throw new Refused(`${name} is larger than ${Math.round(limits.maxThreadBytes / 1024 / 1024)} MB`)
      }
      if (chunk.length) parser.write(chunk)
      if (final) finish(parser)
    }
    file.start()
  }
  feed(bytesIn, (chunk, final) => unzip.push(chunk, final), ZIP_CHUNK)
  if (!kind) throw new Refused('The zip holds no conversations.json and no Loris threads')
  return kind
}

/**
 * The files the survey found named, each once however often the zip repeats its name (a zip may
 * hold a file before the thread that names it, and any number that none names). Posted before
 * the threads, so each thread is stored with its files.
 */
function readZipFiles(bytesIn) {
  if (referenced.size === 0) return
  const files = new Unzip()
  files.register(UnzipInflate)
  files.onfile = (file) => {
    if (!/^files\/[^/]+$/.test(file.name) || !referenced.delete(file.name)) return
    readFile(file)
  }
  feed(bytesIn, (chunk, final) => files.push(chunk, final), ZIP_CHUNK)
}

function readAll(bytesIn, emit) {
  const isZip = bytesIn[0] === 0x50 && bytesIn[1] === 0x4b
  mode = emit ? 'emit' : 'survey'
  entries = 0
  unzipped = 0
  if (!isZip) return parseJson(bytesIn)
  // What the files unpack to counts with the threads against maxUnzippedBytes.
  if (emit && assistant) post({ type: 'assistant', assistant })
  if (emit && assistantRefused) skipFile('assistant.json', assistantRefused)
  if (emit) readZipFiles(bytesIn)
  return readZipThreads(bytesIn)
}

try {
  readAll(data, false)
  const kind = readAll(data, true)
  flush()
  post({ type: 'done', kind })
} catch (err) {
  if (process.env.LORIS_IMPORT_DEBUG) console.error(err)
  const message =
    err instanceof Refused ? err.message : 'The file could not be read: it is not valid JSON or zip'
  post({ type: 'error', message, refused: true })
}
