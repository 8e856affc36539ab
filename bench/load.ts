// Many people at once: the built server in its own process with the shipped settings
// (file-backed embedded database or PostgreSQL with the default workers, default log level), the
// AI stand-in in another, and this process as the load client. Direct calls to the stand-in and
// calls through Loris alternate at each load level. The stand-in streams one word per chunk and
// stamps every chunk with the moment it sends it, so each token's delay is measured on its own,
// whatever the pacing. Prints every figure next to its goal.
//   BENCH_DB=embedded|postgres  BENCH_STREAMS=1,50  BENCH_TOKENS=100  BENCH_DELAY_MS=20
//   BENCH_WORDS_PER_CHUNK=1 (words the stand-in streams per chunk, i.e. per token)
//   BENCH_ROUNDS=2 (rounds per level; 1 stream runs 20 times per round)
//   BENCH_WARMUP=25 (new threads sent, each with a follow-up, before the levels are measured)
//   BENCH_LEVEL_WARMUP=1 (unmeasured batches at each level of more than one stream, first)
//   BENCH_IDLE_S=20 (seconds the warmed-up server is watched while nobody uses it; 0 skips it)
//   BENCH_LISTS=0 skips the list pages (only the token path); BENCH_SERVER_ARGS='--cpu-prof'
//   passes node flags to the server (e.g. to profile it); BENCH_SERVER_LOG=<file> writes the
//   server's standard output there (e.g. with BENCH_SERVER_ARGS='--trace-opt').
//   BENCH_ONLY=start (only the fresh start and idle RSS, a few seconds)
//   BENCH_PEOPLE=1510 signs up at least that many people (by default three per stream of the
//   largest level, plus ten), e.g. to run one stream after as many sign-ups as a 500-stream run.
//   BENCH_COMPARE=<build dir> (an A/B): a second server from another build (e.g. of another
//   commit: `LORIS_BUILD_DIR=<dir> npm run build` in its checkout) runs beside the first, on its
//   own database, and every batch goes through both, in turns: its figures are printed as "B".
//   BENCH_COMPARE_ENV='WEB_CONCURRENCY=1' sets variables for B only (an A/B of a setting: then
//   BENCH_COMPARE=dist, the same build).
// A bare node:http relay (bench/support/bare-relay.ts) runs the same long and short streams at
// each level: its CPU per token is printed as the machine's floor for relaying one, and at one
// stream the time to first token it adds, the floor of an extra hop between client and model.
// Needs `npm run build` first. The figures depend on the machine and on what else runs on it.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { startPostgres } from '../scripts/postgres-server.mjs'
import { freePort } from '../tests/helpers/free-port.ts'
import { chunkStampPattern, stampDelayMs } from '../tests/stand-ins/sse.ts'
import { askGemini, geminiStreamUrl, geminiText, readSse, words } from './support/direct.ts'
import { accrue, fitWork, none, relayed, type Stream, type Work } from './support/fit.ts'

const root = path.resolve(import.meta.dirname, '..')
const DB = process.env.BENCH_DB === 'postgres' ? 'postgres' : 'embedded'
const LEVELS = (process.env.BENCH_STREAMS ?? '1,50')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)
const TOKENS = Number(process.env.BENCH_TOKENS ?? 100)
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 20)
const WORDS_PER_CHUNK = Number(process.env.BENCH_WORDS_PER_CHUNK ?? 1)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const ONLY_START = process.env.BENCH_ONLY === 'start'
const SHORT_TOKENS = 5
const LISTS = process.env.BENCH_LISTS !== '0'
const MIN_PEOPLE = Number(process.env.BENCH_PEOPLE ?? 0)
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean)
const WARMUP_EXCHANGES = Number(process.env.BENCH_WARMUP ?? 25)
const LEVEL_WARMUP_BATCHES = Number(process.env.BENCH_LEVEL_WARMUP ?? 1)
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_S ?? 20)
const COMPARE = process.env.BENCH_COMPARE
const COMPARE_ENV = Object.fromEntries(
  (process.env.BENCH_COMPARE_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=')
      if (at < 1) throw new Error(`BENCH_COMPARE_ENV: "${pair}" is not NAME=value`)
      return [pair.slice(0, at), pair.slice(at + 1)]
    }),
)
/** The tokens at a stream's start whose delay is printed apart (400 ms of the stand-in's). */
const EARLY_TOKENS = 20
const DEADLINE_MS = (COMPARE ? 30 : 15) * 60_000

// ---- processes ----

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = ''
    child.stdout?.on('data', (d) => {
      buf += String(d)
      const i = buf.indexOf('\n')
      if (i >= 0) resolve(buf.slice(0, i))
    })
    child.once('exit', (code) => reject(new Error(`exited (code ${code}) before it was ready`)))
  })
}

/** A process and its children (cluster workers), for CPU and memory. */
function tree(pid: number): number[] {
  const kids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === pid) kids.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return [pid, ...kids]
}

/**
 * CPU time and context switches of a process and its children (every thread): the time each
 * thread spent on a CPU, from /proc/<pid>/task/<tid>/schedstat (user and kernel time together, as
 * /proc/<pid>/stat's 10 ms ticks count them, without their rounding), and from its status the
 * switches (voluntary and not), each one a sleep and a wake that this machine charges for (a wake
 * after 20 ms idle costs a C relay 0.2 to 0.5 ms of CPU here).
 */
function work(pid: number): Work {
  const out = none()
  for (const p of tree(pid)) {
    try {
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const cpu = Number(readFileSync(`/proc/${p}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6
        out.cpu += cpu
        const status = readFileSync(`/proc/${p}/task/${task}/status`, 'utf8')
        let switches = 0
        for (const m of status.matchAll(/ctxt_switches:\s+(\d+)/g)) switches += Number(m[1])
        if (task === String(p)) {
          out.cpuMain += cpu
          out.switchesMain += switches
        } else out.switchesOther += switches
      }
    } catch {
      // gone meanwhile
    }
  }
  return out
}
const cpuMs = (pid: number) => work(pid).cpu

/**
 * Waits until the server is idle: under `belowMs` of CPU in `windowMs` (2 ms in 250 ms; at most
 * `maxMs`), so work still running after an answer is not counted as the next measurement's.
 */
async function settledCpu(pid: number, maxMs = 10_000, windowMs = 250, belowMs = 2): Promise<void> {
  const deadline = performance.now() + maxMs
  let last = cpuMs(pid)
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, windowMs))
    const now = cpuMs(pid)
    if (now - last < belowMs) return
    last = now
  }
}

function rssMb(pid: number): number {
  let kb = 0
  for (const p of tree(pid)) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))
      kb += Number(m?.[1] ?? 0)
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024
}

// ---- streams ----

/** Why streams failed, to print under the table (the first few of each kind). */
const failures = new Map<string, number>()
const failed = (why: string) => failures.set(why, (failures.get(why) ?? 0) + 1)
/** The server's first warnings and errors (its log lines at pino's warn level and above). */
const serverWarnings: string[] = []
const printFailures = () => {
  for (const [why, count] of failures) console.info(`failed ${count}x: ${why}`)
  if (failures.size > 0) for (const line of serverWarnings) console.info(`server log: ${line}`)
}

async function timed(
  start: () => Promise<Response>,
  textOf: (data: string) => { text?: string; error?: boolean },
) {
  const t0 = performance.now()
  const out: Stream = { ok: true, arrivals: [], delays: [] }
  try {
    const res = await start()
    if (!res.ok) {
      failed(`HTTP ${res.status}: ${(await res.text()).slice(0, 160)}`)
      return { ...out, ok: false }
    }
    await readSse(res, (data, at) => {
      const { text, error } = textOf(data)
      if (error) {
        out.ok = false
        // Without the ids, which differ every time: the same error is counted once with its number.
        failed(`error event: ${data.replace(/"(id|threadId|actualThreadId)":"[^"]*",?/g, '').slice(0, 300)}`)
      }
      if (!text) return
      out.arrivals.push(at - t0)
      // Loris may carry several tokens in one frame: each is timed by its own stamp.
      const arrived = performance.timeOrigin + at
      for (const m of text.matchAll(chunkStampPattern)) out.delays.push(stampDelayMs(m[0], arrived))
    })
  } catch (err) {
    out.ok = false
    failed(`request failed: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (out.arrivals.length === 0 && out.ok) {
    out.ok = false
    failed('no text arrived')
  }
  return out
}

// ---- statistics ----

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number) : Number.NaN
}
const median = (xs: number[]) => pct(xs, 50)
/** CPU time of the main threads, then of the others (the database thread, V8's helpers). */
const split = (w: Work) => `${ms(w.cpuMain)} / ${ms(w.cpu - w.cpuMain)}`
/** Context switches (a sleep and a wake, or a preemption): the main threads', then the others'. */
const switches = (w: Work) => `${w.switchesMain.toFixed(2)} / ${w.switchesOther.toFixed(2)}`
const ms = (x: number) =>
  Number.isFinite(x) ? `${x < 1 ? x.toFixed(3) : x < 10 ? x.toFixed(2) : x.toFixed(0)} ms` : 'n/a'

// ---- the run ----

interface Row {
  figure: string
  measured: string
  goal: string
  met: string
}
const rows: Row[] = []
const row = (figure: string, measured: string, goal = '', met: boolean | null = null) =>
  rows.push({ figure, measured, goal, met: met === null ? '' : met ? 'yes' : 'NO' })

function table(list: Row[]): string {
  const keys = ['figure', 'measured', 'goal', 'met'] as const
  const widths = keys.map((k) => Math.max(k.length, ...list.map((r) => r[k].length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')
  return [
    line([...keys]),
    line(widths.map((w) => '-'.repeat(w))),
    ...list.map((r) => line(keys.map((k) => r[k]))),
  ].join('\n')
}

export async function run(): Promise<void> {
  const main = path.join(root, process.env.LORIS_BUILD_DIR ?? 'dist', 'server/main.js')
  if (!existsSync(main)) throw new Error('Build first: npm run build')
  const deadline = setTimeout(() => {
    console.error('load bench: gave up (deadline)')
    process.exit(1)
  }, DEADLINE_MS)
  const children: ChildProcess[] = []
  let postgres: { url: string; stop(): void } | undefined
  let postgresB: { url: string; stop(): void } | undefined
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loris-bench-'))
  // The deadline, a failure and a signal (Ctrl-C, a kill of the bench) all end here: the server,
  // the stand-ins and PostgreSQL must not outlive the bench on any of them.
  const leaveNothing = () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    children.length = 0
    postgres?.stop()
    postgres = undefined
    postgresB?.stop()
    postgresB = undefined
    rmSync(dataDir, { recursive: true, force: true })
  }
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`load bench: stopped (${signal})`)
    process.exit(1)
  }
  process.once('exit', leaveNothing)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const standIn = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/support/stand-in-process.ts',
        '--delay',
        String(DELAY_MS),
        '--words-per-chunk',
        String(WORDS_PER_CHUNK),
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    children.push(standIn)
    const { gemini } = JSON.parse(await firstLine(standIn)) as { gemini: string }
    const geminiStream = geminiStreamUrl(gemini)
    // The reference: a bare node:http relay in front of the same stand-in, in its own process.
    const relay = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/support/bare-relay.ts', '--upstream', geminiStream],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    children.push(relay)
    const relayUrl = `http://127.0.0.1:${(JSON.parse(await firstLine(relay)) as { port: number }).port}`
    if (DB === 'postgres') postgres = await startPostgres()
    if (DB === 'postgres' && COMPARE) postgresB = await startPostgres()

    /** A Loris server from the build at `buildDir`, on its own database; resolves once it answers. */
    const launch = async (
      mainJs: string,
      dir: string,
      databaseUrl: string | undefined,
      args: string[],
      extraEnv: Record<string, string> = {},
    ) => {
      const port = await freePort()
      const url = `http://127.0.0.1:${port}`
      const server = spawn(process.execPath, [...args, mainJs], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: url,
          DATA_DIR: dir,
          SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
          // Each simulated person comes from their own address (registration is limited per network).
          TRUST_PROXY: 'true',
          ECO_ENGINE: 'off',
          GEMINI_API_KEY: 'bench',
          GEMINI_BASE_URL: gemini,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          ...extraEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      children.push(server)
      const logTail: string[] = []
      let partial = ''
      const keep = (d: Buffer) => {
        logTail.push(String(d))
        if (logTail.length > 50) logTail.shift()
        // The server's warnings and errors (pino's levels 40 and up), printed under the table when
        // streams failed: the event a person sees says less than the log does (its cause).
        const lines = (partial + String(d)).split('\n')
        partial = lines.pop() ?? ''
        for (const line of lines)
          if (/"level":[4-6]\d/.test(line) && serverWarnings.length < 20)
            serverWarnings.push(line.slice(0, 600))
      }
      server.stdout?.on('data', keep)
      server.stderr?.on('data', keep)
      for (;;) {
        if (server.exitCode !== null) throw new Error(`server exited:\n${logTail.join('')}`)
        const up = await fetch(`${url}/api/health`)
          .then((r) => r.ok)
          .catch(() => false)
        if (up) break
        await new Promise((r) => setTimeout(r, 50))
      }
      return { url, pid: server.pid as number, server }
    }
    const started = performance.now()
    const a = await launch(main, dataDir, postgres?.url, SERVER_ARGS)
    if (process.env.BENCH_SERVER_LOG) {
      const out = createWriteStream(process.env.BENCH_SERVER_LOG)
      a.server.stdout?.on('data', (d) => out.write(d))
    }
    const { url, pid } = a
    const b = COMPARE
      ? await launch(
          path.resolve(root, COMPARE, 'server/main.js'),
          mkdtempSync(path.join(dataDir, 'b-')),
          postgresB?.url,
          [],
          COMPARE_ENV,
        )
      : null
    /** The servers measured: Loris, and with BENCH_COMPARE the other build, "B". */
    const targets = b ? [a, b] : [a]
    const relayPid = relay.pid as number

    const maxLevel = Math.max(...LEVELS)
    let turn = 1
    const nextPerson = () => people[turn++ % (people.length - 1)]!
    // One stream per person at a time, rotating over three times the largest level (or
    // BENCH_PEOPLE): each stays far below the per-person limits (3 replies at once, 20 sends a minute).
    const people = Array.from({ length: Math.max(maxLevel * 3 + 10, MIN_PEOPLE) }, (_, i) => ({
      address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      /** The person's session cookie on each server (targets' order). */
      cookies: targets.map(() => ''),
    }))
    const register = async (p: (typeof people)[number], i: number, target = 0) => {
      const url = targets[target]!.url
      const res = await fetch(`${url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': p.address },
        body: JSON.stringify({
          email: `bench-${i}-${randomUUID().slice(0, 8)}@example.com`,
          password: 'bench password 123',
        }),
      })
      const cookie =
        res.headers
          .getSetCookie()
          .find((c) => c.startsWith('loris_session='))
          ?.split(';')[0] ?? ''
      if (!cookie) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`)
      p.cookies[target] = cookie
      // The chat page's first request, as a browser makes it before anyone sends.
      const session = await fetch(`${url}/api/session`, { headers: { cookie } })
      if (!session.ok) throw new Error(`session read failed: ${session.status}`)
      await session.arrayBuffer()
    }
    /** A send through Loris (or B): in a new thread, or after the last exchange of `thread.id`. */
    const viaLoris = (p: (typeof people)[number], chunks: number, thread: { id?: string } = {}, target = 0) =>
      timed(
        () =>
          fetch(`${targets[target]!.url}/api/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: p.cookies[target]! },
            body: JSON.stringify({
              content: words(chunks * WORDS_PER_CHUNK),
              clientMessageId: randomUUID(),
              threadId: thread.id,
            }),
          }),
        (data) => {
          const e = JSON.parse(data) as { text?: string; error?: string; threadId?: string }
          thread.id ??= e.threadId
          return { text: e.text, error: Boolean(e.error) }
        },
      )
    const direct = (chunks: number, to = geminiStream) =>
      timed(
        () => askGemini(to, words(chunks * WORDS_PER_CHUNK)),
        (data) => ({ text: geminiText(data) }),
      )

    // Fresh start to first answer: the server started on an empty data directory just now.
    const first = people[0]!
    await register(first, 0)
    const asked = performance.now()
    const firstAnswer = await viaLoris(first, 3)
    // To the first token of the first answer, from the moment the process was started.
    const toFirstToken = asked - started + (firstAnswer.arrivals[0] ?? Number.NaN)
    // The same start in CPU time (all the server's threads): the machine is shared, wall time is noisy.
    const startCpu = cpuMs(pid)
    // Idle: nothing streaming, a moment after start-up and the first answer settled.
    await new Promise((r) => setTimeout(r, 1000))
    const idleRss = rssMb(pid)
    // The sign-ups of every simulated person (argon2id, 19 MB each while hashing) leave memory
    // behind in the allocator's arenas; shown apart from the idle figure, after the same pause.
    await Promise.all(people.slice(1).map((p, i) => register(p, i + 1)))
    if (b) {
      for (let i = 0; i < people.length; i += 50)
        await Promise.all(people.slice(i, i + 50).map((p, j) => register(p, i + j, 1)))
      await settledCpu(b.pid, 120_000)
    }
    await new Promise((r) => setTimeout(r, 1000))
    const signedUpRss = rssMb(pid)

    const embedded = DB === 'embedded'
    row(
      'database',
      embedded
        ? 'embedded PGlite, file-backed (worker thread)'
        : `PostgreSQL, ${tree(pid).length - 1 || 1} worker(s)`,
    )
    row(
      'machine',
      `${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at start (shared)`,
    )
    if (embedded) {
      row('fresh start to first token', ms(toFirstToken), 'under 3 s', toFirstToken < 3000)
      row('fresh start to first token: server CPU', ms(startCpu))
      row(
        'idle RSS (after start and a first answer)',
        `${idleRss.toFixed(0)} MB`,
        'under 300 MB',
        idleRss < 300,
      )
    } else row('idle RSS (all workers)', `${idleRss.toFixed(0)} MB`)
    row(`RSS after ${people.length - 1} more sign-ups`, `${signedUpRss.toFixed(0)} MB`)
    if (ONLY_START) {
      console.info(table(rows))
      printFailures()
      return
    }

    // The sign-ups' e-mails are written in the background for seconds after their answers:
    // the streams are measured once that is done, so it is not counted as the first level's CPU.
    await settledCpu(pid, 120_000)
    // Warm-up, as a server that has answered for a while: the send path's code is compiled by V8
    // as it gets hot, and until then each send costs more CPU (decision 034), a cost of the
    // process's first minutes that the fresh start's figure shows.
    for (let i = 0; i < WARMUP_EXCHANGES; i++) {
      const p = nextPerson()
      for (const t of targets.keys()) {
        const thread: { id?: string } = {}
        await viaLoris(p, SHORT_TOKENS, thread, t)
        await viaLoris(p, SHORT_TOKENS, thread, t)
      }
      await direct(SHORT_TOKENS)
    }

    // Idle, once warmed up: what the server costs while nobody uses it (its own timers, e.g. the
    // lease sweep every 5 s), each wake a context switch of an otherwise sleeping process. After
    // a busy spell V8 compiles and collects for some seconds more, and the embedded database's
    // upkeep runs a minute apart: measured in 5-second windows (the sweep's period).
    if (IDLE_SECONDS > 0) {
      await settledCpu(pid, 60_000, 2000, 4)
      const cpu: number[] = []
      const main: number[] = []
      const other: number[] = []
      for (let i = 0; i < Math.max(1, Math.round(IDLE_SECONDS / 5)); i++) {
        const before = work(pid)
        await new Promise((r) => setTimeout(r, 5000))
        const window = accrue(none(), work(pid), before)
        cpu.push(window.cpu / 5)
        main.push(window.switchesMain / 5)
        other.push(window.switchesOther / 5)
      }
      // The quietest window is the server's own timers; the median also shows work it was still
      // finishing (V8's compiling, an upkeep's ANALYZE after many sign-ups).
      const both = (xs: number[], f: (x: number) => string) => `${f(Math.min(...xs))} / ${f(pct(xs, 50))}`
      row('idle server: CPU per second, quietest 5 s / median (reference)', both(cpu, ms))
      row(
        'idle server: context switches per second, main, quietest 5 s / median (reference)',
        both(main, (x) => x.toFixed(1)),
      )
      row(
        'idle server: context switches per second, other threads, quietest 5 s / median (reference)',
        both(other, (x) => x.toFixed(1)),
      )
    }

    /** Batches run so far, over every level: which server goes first. */
    let batch = 0
    for (const n of LEVELS) {
      const ttftDirect: number[] = []
      const directStreams: Stream[] = []
      let directErrors = 0
      let streams = 0
      /** Each server's figures at this level (targets' order). */
      const acc = targets.map(() => ({
        ttft: [] as number[],
        followUp: [] as number[],
        streams: [] as Stream[],
        errors: 0,
        long: none(),
        short: none(),
        tokensLong: 0,
        tokensShort: 0,
        peakRss: 0,
        firstBatch: null as ReturnType<typeof fitWork> | null,
      }))
      const relayWork = { long: none(), short: none(), tokensLong: 0, tokensShort: 0 }
      const relayStreams: Stream[] = []
      const ttftRelay: number[] = []
      // Batches per round: a level's CPU per token is one fit over all of them. At one stream each
      // batch gives one time to first token of each kind.
      const batches = n === 1 ? 20 : n <= 50 ? 3 : 1
      /** A batch: `n` streams at once. */
      const all = <T>(run: () => Promise<T>) => Promise.all(Array.from({ length: n }, run))
      // The first batch at a level is the first time a process runs that many streams at once
      // (decision 037): new connections on both sides, and code one stream leaves cold compiled by
      // V8 as it gets hot. A batch of each kind goes first, for each server and the bare relay;
      // its own fit is printed as a reference, not against the goal.
      for (let w = 0; n > 1 && w < LEVEL_WARMUP_BATCHES; w++) {
        await all(() => direct(TOKENS))
        for (const [t, server] of targets.entries()) {
          const atStart = work(server.pid)
          const long = await all(() => viaLoris(nextPerson(), TOKENS, {}, t))
          const afterLong = work(server.pid)
          const short = await all(() => viaLoris(nextPerson(), SHORT_TOKENS, {}, t))
          acc[t]!.firstBatch ??= fitWork(
            accrue(none(), afterLong, atStart),
            accrue(none(), work(server.pid), afterLong),
            relayed(long),
            relayed(short),
            n,
          )
        }
        await all(() => direct(TOKENS, relayUrl))
        await all(() => direct(SHORT_TOKENS, relayUrl))
      }
      for (const server of targets) await settledCpu(server.pid)
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < batches; k++, batch++) {
          const d = await all(() => direct(TOKENS))
          directErrors += d.filter((x) => !x.ok).length
          ttftDirect.push(...d.filter((x) => x.ok).map((x) => x.arrivals[0]!))
          directStreams.push(...d)
          streams += n
          // The servers take turns going first, counted over the whole run: neither is always the
          // one after the direct calls, even at a level of one batch.
          const order = [...targets.keys()]
          if (batch % 2 === 1) order.reverse()
          for (const t of order) {
            const server = targets[t]!
            const f = acc[t]!
            const before = work(server.pid)
            const sampler = setInterval(() => {
              f.peakRss = Math.max(f.peakRss, rssMb(server.pid))
            }, 250)
            const threads = Array.from({ length: n }, () => ({ person: nextPerson(), thread: {} }))
            const l = await Promise.all(threads.map((x) => viaLoris(x.person, TOKENS, x.thread, t)))
            clearInterval(sampler)
            f.long = accrue(f.long, work(server.pid), before)
            f.tokensLong += relayed(l)
            f.errors += l.filter((x) => !x.ok).length
            f.ttft.push(...l.filter((x) => x.ok).map((x) => x.arrivals[0]!))
            f.streams.push(...l)
            // The same number of short replies: what starting and finishing a stream costs.
            const beforeShort = work(server.pid)
            const sh = await all(() => viaLoris(nextPerson(), SHORT_TOKENS, {}, t))
            f.short = accrue(f.short, work(server.pid), beforeShort)
            f.tokensShort += relayed(sh)
            f.errors += sh.filter((x) => !x.ok).length
            // At one stream, a second send in the thread: its start reads the thread's history.
            if (n === 1) {
              const up = await Promise.all(threads.map((x) => viaLoris(x.person, SHORT_TOKENS, x.thread, t)))
              f.errors += up.filter((x) => !x.ok).length
              f.followUp.push(...up.filter((x) => x.ok).map((x) => x.arrivals[0]!))
            }
          }
          // The same through the bare relay, long and short, for its CPU per token.
          const relayLong = work(relayPid)
          const rl = await all(() => direct(TOKENS, relayUrl))
          relayWork.long = accrue(relayWork.long, work(relayPid), relayLong)
          relayWork.tokensLong += relayed(rl)
          const relayShort = work(relayPid)
          const rs = await all(() => direct(SHORT_TOKENS, relayUrl))
          relayWork.short = accrue(relayWork.short, work(relayPid), relayShort)
          relayWork.tokensShort += relayed(rs)
          ttftRelay.push(...[...rl, ...rs].filter((x) => x.ok).map((x) => x.arrivals[0]!))
          relayStreams.push(...rl)
        }
      }
      /** The delays of the streams that succeeded: every token's, or those from `from` to `to`. */
      const delays = (list: Stream[], from = 0, to?: number) =>
        list.filter((x) => x.ok).flatMap((x) => x.delays.slice(from, to))
      const directDelays = delays(directStreams)
      const relayDelays = delays(relayStreams)
      const bare = fitWork(
        relayWork.long,
        relayWork.short,
        relayWork.tokensLong,
        relayWork.tokensShort,
        streams,
      )
      const level = `${n} stream${n > 1 ? 's' : ''}`
      const perTokenDelay = (xs: number[]) => `${ms(median(xs))} / ${ms(pct(xs, 99))} (${xs.length} tokens)`
      row(`${level}: TTFT p50 / p99, direct`, `${ms(median(ttftDirect))} / ${ms(pct(ttftDirect, 99))}`)
      row(`${level}: per-token delay p50 / p99, direct`, perTokenDelay(directDelays))
      row(`${level}: per-token delay p50 / p99, bare node:http relay`, perTokenDelay(relayDelays))
      row(
        `${level}: per-token delay added by a bare node:http relay, p99 (reference)`,
        ms(pct(relayDelays, 99) - pct(directDelays, 99)),
      )
      if (n === 1)
        row(
          `${level}: TTFT added by a bare node:http relay, p50 (reference)`,
          ms(median(ttftRelay) - median(ttftDirect)),
        )
      row(`${level}: CPU per token of a bare node:http relay (reference)`, ms(bare.perToken.cpu))
      row(`${level}: context switches per token of the bare relay (reference)`, switches(bare.perToken))
      row(
        `${level}: CPU per stream start+finish of a bare node:http relay (reference)`,
        ms(bare.perStream.cpu),
      )
      for (const [t, f] of acc.entries()) {
        const label = `${level}${t === 0 ? '' : ' (B)'}`
        const fit = fitWork(f.long, f.short, f.tokensLong, f.tokensShort, streams)
        const lorisDelays = delays(f.streams)
        const errors = f.errors + directErrors
        row(`${label}: TTFT p50 / p99, Loris`, `${ms(median(f.ttft))} / ${ms(pct(f.ttft, 99))}`)
        row(
          `${label}: errors`,
          // Direct, long and short through Loris, and at one stream the follow-ups.
          `${errors} of ${streams * (n === 1 ? 4 : 3)}`,
          n >= 500 ? 'none' : '',
          n >= 500 ? errors === 0 : null,
        )
        row(`${label}: per-token delay p50 / p99, Loris`, perTokenDelay(lorisDelays))
        const addedP99 = pct(lorisDelays, 99) - pct(directDelays, 99)
        row(
          `${label}: per-token delay added, p99`,
          ms(addedP99),
          n >= 500 ? 'at most 100 ms' : '',
          n >= 500 ? addedP99 <= 100 : null,
        )
        if (n > 1) {
          // Where the tail sits: a stream's first tokens come while the batch's other sends start.
          const early = (list: Stream[]) => delays(list, 0, EARLY_TOKENS)
          const late = (list: Stream[]) => delays(list, EARLY_TOKENS)
          row(
            `${label}: per-token delay p99, a stream's first ${EARLY_TOKENS} tokens / the rest, Loris (direct)`,
            `${ms(pct(early(f.streams), 99))} / ${ms(pct(late(f.streams), 99))} (${ms(pct(early(directStreams), 99))} / ${ms(pct(late(directStreams), 99))})`,
          )
        }
        if (n === 1) {
          const ttftAdded = median(f.ttft) - median(ttftDirect)
          row(`${label}: TTFT added, p50`, ms(ttftAdded), 'at most 15 ms', ttftAdded <= 15)
          row(
            `${label}: TTFT added, p50, a follow-up in the thread (reference)`,
            ms(median(f.followUp) - median(ttftDirect)),
          )
        }
        // What the fit divides by: the chunks that arrived, the reply's own included.
        row(
          `${label}: tokens relayed per stream, long / short (fit's counts)`,
          `${(f.tokensLong / streams).toFixed(1)} / ${(f.tokensShort / streams).toFixed(1)}`,
        )
        const ratio = fit.perToken.cpu / bare.perToken.cpu
        row(
          `${label}: server CPU per token (fit), and over the bare relay's`,
          `${ms(fit.perToken.cpu)}, ${ratio.toFixed(2)}x`,
          n >= 50 ? 'at most 2x' : '',
          n >= 50 ? ratio <= 2 : null,
        )
        row(`${label}: server CPU per token, main / other threads (fit)`, split(fit.perToken))
        if (f.firstBatch)
          row(
            `${label}: server CPU per token in the level's first batch, unmeasured (reference)`,
            ms(f.firstBatch.perToken.cpu),
          )
        row(`${label}: context switches per token, main / other threads (fit)`, switches(fit.perToken))
        row(`${label}: server CPU per stream start+finish (fit)`, ms(fit.perStream.cpu))
        row(`${label}: server CPU per stream start+finish, main / other threads (fit)`, split(fit.perStream))
        row(
          `${label}: context switches per stream start+finish, main / other threads (fit)`,
          switches(fit.perStream),
        )
        row(`${label}: server RSS, peak while streaming`, `${f.peakRss.toFixed(0)} MB`)
      }
    }

    // Lists: a long history, brought in by the import, then walked a page at a time.
    if (LISTS) await lists()
    async function lists() {
      const conv = (title: string, time: number, exchanges: number) => {
        const mapping: Record<string, unknown> = {
          root: { id: 'root', parent: null, children: [] as string[], message: null },
        }
        let parent = 'root'
        for (let i = 0; i < exchanges; i++)
          for (const role of ['user', 'assistant']) {
            const id = `${role}-${i}`
            mapping[id] = {
              id,
              parent,
              children: [],
              message: {
                author: { role },
                content: { content_type: 'text', parts: [`${role} ${i} ${words(30)}`] },
                create_time: time + i,
              },
            }
            ;(mapping[parent] as { children: string[] }).children.push(id)
            parent = id
          }
        return {
          title,
          conversation_id: title,
          create_time: time,
          update_time: time + exchanges,
          current_node: parent,
          mapping,
        }
      }
      const lists = { cookie: people[people.length - 1]!.cookies[0]! }
      const file = [
        conv('Long', 1_700_000_000, 1000),
        ...Array.from({ length: 1000 }, (_, i) => conv(`T${i}`, 1_600_000_000 + i * 60, 1)),
      ]
      const form = new FormData()
      form.set('file', new File([JSON.stringify(file)], 'conversations.json'))
      const imported = await fetch(`${url}/api/import`, {
        method: 'POST',
        headers: { cookie: lists.cookie },
        body: form,
      })
      if (!imported.ok) throw new Error(`import failed: ${imported.status} ${await imported.text()}`)
      const get = async (p: string) => {
        const res = await fetch(`${url}${p}`, { headers: { cookie: lists.cookie } })
        if (!res.ok) throw new Error(`${p}: ${res.status}`)
        return res.json()
      }
      const walk = async (base: string, pages: number) => {
        let cursor: string | null = null
        // The import's work after its answer (and another worker's timers) is not a page's.
        await settledCpu(pid)
        const before = cpuMs(pid)
        let done = 0
        for (; done < pages; done++) {
          const page = (await get(cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base)) as {
            nextCursor: string | null
          }
          cursor = page.nextCursor
          if (!cursor) break
        }
        return (cpuMs(pid) - before) / (done + 1)
      }
      const threads = (await get('/api/threads?limit=1')) as { items: { id: string; title: string }[] }
      const all = (await get('/api/threads')) as { id: string; title: string }[]
      const longId = all.find((t) => t.title === 'Long')?.id ?? threads.items[0]?.id
      // Each walk runs twice and the second is the figure: the first runs the page code cold in
      // each worker (its first calls compile it: nearly twice the CPU per thread page on
      // PostgreSQL), as the token path is measured after a warm-up (decision 034).
      const threadPageCold = await walk('/api/threads?limit=50', 20)
      const threadPage = await walk('/api/threads?limit=50', 20)
      const messagePageCold = await walk(`/api/messages?threadId=${longId}&limit=30`, 30)
      const messagePage = await walk(`/api/messages?threadId=${longId}&limit=30`, 30)
      await settledCpu(pid)
      const beforeWhole = cpuMs(pid)
      await get('/api/threads')
      await get(`/api/messages?threadId=${longId}`)
      const whole = (cpuMs(pid) - beforeWhole) / 2
      row('lists: server CPU per thread page (50 of 1,001)', ms(threadPage), 'under 5 ms', threadPage < 5)
      row('lists: server CPU per message page (30 of 1,000)', ms(messagePage), 'under 5 ms', messagePage < 5)
      row(
        'lists: server CPU per thread / message page, first walk (reference)',
        `${ms(threadPageCold)} / ${ms(messagePageCold)}`,
      )
      row('lists: server CPU for a whole list (before pages)', ms(whole))
    }
    row('server RSS at the end', `${rssMb(pid).toFixed(0)} MB`)

    console.info(
      `Stand-in: ${TOKENS} chunks of ${WORDS_PER_CHUNK} word(s) ${DELAY_MS} ms apart (and ${SHORT_TOKENS}-chunk replies for the start/finish fit; each reply adds its own "Echo:" and history line, which the fit counts), own process; load client: this process; server: dist/server/main.js, own process.`,
    )
    console.info('CPU is read per thread from /proc (schedstat, nanoseconds). The machine is shared.')
    console.info(table(rows))
    printFailures()
  } finally {
    clearTimeout(deadline)
    for (const child of [...children].reverse()) {
      child.kill('SIGTERM')
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((r) => child.once('exit', r))
    }
    leaveNothing()
    process.off('exit', leaveNothing)
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}
