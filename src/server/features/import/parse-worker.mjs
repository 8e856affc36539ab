// Parses an import file off the main thread (issue 14): a ChatGPT data export (conversations.json
// or the zip holding it) or a Loris export (the data zip or one thread's JSON). Plain JavaScript so
// the same file runs under the tests, tsx and the bundled server (Node 20 runs no TypeScript in a
// worker). Everything is read as a stream: the zip with fflate's Unzip, the JSON with
// @streamparser/json, one conversation at a time. The main thread validates what it receives.
import { parentPort, workerData } from 'node:worker_threads'
import { JSONParser } from '@streamparser/json'
import { Unzip, UnzipInflate } from 'fflate'

const { bytes, limits } = workerData
const data = new Uint8Array(bytes)
const CHUNK = 64 * 1024
let unzipped = 0

class Refused extends Error {}

const post = (message, transfer) => parentPort.postMessage(message, transfer)
/** Paths (files/...) the attachments of emitted Loris messages name: the only files read. */
const referenced = new Set()
/** Bytes of files posted so far; past limits.maxFilesBytes the rest are left out. */
let filesBytes = 0
const skip = (title, reason) => post({ type: 'skipped', title, reason })

let threadCount = 0
function emitThread(thread) {
  threadCount++
  if (threadCount > limits.maxThreads)
    throw new Refused(`The file holds more than ${limits.maxThreads} conversations`)
  post({ type: 'thread', thread })
}

// ---- ChatGPT -------------------------------------------------------------------------------

// A time past what a Date holds is no time (toISOString would throw and fail the whole file); one
// a Date holds but the database does not is refused by the main thread's schema, for that thread.
function seconds(v) {
  const at = typeof v === 'number' ? new Date(v * 1000) : null
  return at && Number.isFinite(at.getTime()) ? at.toISOString() : null
}

function textOf(message) {
  const content = message?.content
  if (!content) return { text: '', dropped: 0 }
  if (Array.isArray(content.parts)) {
    const texts = content.parts.filter((p) => typeof p === 'string')
    const dropped = content.parts.length - texts.length
    return { text: texts.join('\n\n').trim(), dropped }
  }
  if (typeof content.text === 'string') return { text: content.text.trim(), dropped: 0 }
  return { text: '', dropped: 1 }
}

/** The current branch, root first: from current_node up through the parents. */
function currentBranch(conv) {
  const mapping = conv.mapping && typeof conv.mapping === 'object' ? conv.mapping : {}
  let id = conv.current_node
  if (!id || !mapping[id]) {
    // No current node: the last leaf by time.
    const leaves = Object.values(mapping).filter((n) => !n.children?.length && n.message)
    leaves.sort((a, b) => (a.message?.create_time ?? 0) - (b.message?.create_time ?? 0))
    id = leaves.at(-1)?.id
  }
  const path = []
  const seen = new Set()
  while (id && mapping[id] && !seen.has(id)) {
    seen.add(id)
    path.push(mapping[id])
    id = mapping[id].parent
  }
  return path.reverse()
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
  let otherBranches = 0
  for (const node of Object.values(conv.mapping ?? {}))
    if ((node.children?.length ?? 0) > 1) otherBranches += node.children.length - 1
  for (const node of branch) {
    const m = node.message
    const role = m?.author?.role
    if (role !== 'user' && role !== 'assistant') continue
    if (m.metadata?.is_visually_hidden_from_conversation) continue
    const { text, dropped: d } = textOf(m)
    dropped += d
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
      last.modelId = typeof m.metadata?.model_slug === 'string' ? m.metadata.model_slug : last.modelId
      last.completedAt = at
    }
  }
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
    notes: { droppedParts: dropped, otherBranches },
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

function conversationsParser() {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false, stringBufferSize: 0 })
  parser.onValue = ({ value }) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) chatgptThread(value)
    else skip('(unknown)', 'not a conversation')
  }
  return parser
}

// ---- Loris ---------------------------------------------------------------------------------

function lorisThread(doc) {
  const t = doc?.thread
  if (doc?.format !== 'loris-export' || !t || typeof t.id !== 'string' || !Array.isArray(doc.messages))
    return skip(typeof t?.title === 'string' ? t.title : '(unknown)', 'not a Loris thread export')
  if (doc.messages.length > limits.maxMessagesPerThread)
    return skip(t.title, `more than ${limits.maxMessagesPerThread} messages`)
  for (const m of doc.messages) if (typeof m?.attachment?.path === 'string') referenced.add(m.attachment.path)
  emitThread({
    source: `loris:${t.id}`,
    title: t.title,
    chatModel: t.chatModel,
    isFavorite: t.isFavorite === true,
    isDefault: t.isDefault === true,
    createdAt: t.createdAt,
    lastMessageAt: t.lastMessageAt,
    notes: { droppedParts: 0, otherBranches: 0 },
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
    })),
  })
}

function wholeJsonParser(onDoc) {
  const parser = new JSONParser({ paths: ['$'], keepStack: false })
  parser.onValue = ({ value }) => onDoc(value)
  return parser
}

// ---- Input ---------------------------------------------------------------------------------

/** The parser stops by itself after a complete document; end() then only checks a cut-off one. */
function finish(parser) {
  if (!parser.isEnded) parser.end()
}

function feed(bytesIn, write) {
  for (let at = 0; at < bytesIn.length; at += CHUNK)
    write(bytesIn.subarray(at, at + CHUNK), at + CHUNK >= bytesIn.length)
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
    const parser = wholeJsonParser(lorisThread)
    feed(bytesIn, (chunk) => parser.write(chunk))
    finish(parser)
    return 'loris'
  }
  throw new Refused('The file is neither a ChatGPT export nor a Loris export')
}

/**
 * A file of a Loris export that a message names, sent whole to the main thread (each is at most
 * the upload limit). The main thread holds every file until the threads are stored, and the
 * worker's heap cap does not count these buffers: so the files together get a budget
 * (maxFilesBytes). A file past it is left out, not the import refused: the conversations are what
 * a person imports for, an export cannot be made smaller by hand, and the report says how many
 * files are missing. Posted as 'fileLeftOut' so the report can say why.
 */
function readFile(file) {
  const chunks = []
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
      skip(file.name, 'the file is larger than an upload may be')
      leftOut = true
      chunks.length = 0
      return
    }
    if (filesBytes + size > limits.maxFilesBytes) {
      post({ type: 'fileLeftOut', path: file.name })
      leftOut = true
      chunks.length = 0
      return
    }
    chunks.push(chunk)
    if (final) {
      const bytes = new Uint8Array(size)
      let at = 0
      for (const c of chunks) {
        bytes.set(c, at)
        at += c.length
      }
      filesBytes += size
      post({ type: 'file', path: file.name, bytes }, [bytes.buffer])
    }
  }
  file.start()
}

function parseZip(bytesIn) {
  let kind = null
  const unzip = new Unzip()
  unzip.register(UnzipInflate)
  // First the conversations; an entry not started is skipped without being inflated.
  unzip.onfile = (file) => {
    const name = file.name
    const isConversations = /(^|\/)conversations\.json$/.test(name)
    const isLorisThread = /^threads\/[^/]+\.json$/.test(name)
    if (!isConversations && !isLorisThread) return
    kind = isConversations ? 'chatgpt' : 'loris'
    const parser = isConversations ? conversationsParser() : wholeJsonParser(lorisThread)
    let entryBytes = 0
    file.ondata = (err, chunk, final) => {
      if (err) throw new Refused(`The zip is damaged (${name})`)
      unzipped += chunk.length
      entryBytes += chunk.length
      if (unzipped > limits.maxUnzippedBytes)
        throw new Refused(
          `The file unpacks to more than ${Math.round(limits.maxUnzippedBytes / 1024 / 1024)} MB`,
        )
      if (isLorisThread && entryBytes > limits.maxThreadBytes) {
        throw new Refused(`${name} is larger than ${Math.round(limits.maxThreadBytes / 1024 / 1024)} MB`)
      }
      if (chunk.length) parser.write(chunk)
      if (final) finish(parser)
    }
    file.start()
  }
  feed(bytesIn, (chunk, final) => unzip.push(chunk, final))
  if (!kind) throw new Refused('The zip holds no conversations.json and no Loris threads')
  // Then, in a second pass over the same bytes, only the files those conversations name (a zip
  // may hold a file before the thread that names it, and any number that none names), each once
  // however often the zip repeats its name.
  if (referenced.size > 0) {
    const files = new Unzip()
    files.register(UnzipInflate)
    files.onfile = (file) => {
      if (!/^files\/[^/]+$/.test(file.name) || !referenced.delete(file.name)) return
      readFile(file)
    }
    feed(bytesIn, (chunk, final) => files.push(chunk, final))
  }
  return kind
}

try {
  const isZip = data[0] === 0x50 && data[1] === 0x4b
  const kind = isZip ? parseZip(data) : parseJson(data)
  post({ type: 'done', kind })
} catch (err) {
  if (process.env.LORIS_IMPORT_DEBUG) console.error(err)
  const message =
    err instanceof Refused ? err.message : 'The file could not be read: it is not valid JSON or zip'
  post({ type: 'error', message, refused: true })
}
