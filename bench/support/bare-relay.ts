// The load bench's reference relay: the least a Node process can do to pass a streaming reply on
// (node:http in and out, each upstream chunk written as it comes, no parsing, no database), so the
// bench can print what relaying a token costs on this machine apart from anything Loris does.
// `--upstream <url>`: every POST is sent there with its body. Prints one JSON line with its port.
import http from 'node:http'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { upstream: { type: 'string' } } })
if (!values.upstream) throw new Error('--upstream is required')
const upstream = new URL(values.upstream)
const agent = new http.Agent({ keepAlive: true })

const server = http.createServer((req, res) => {
  const body: Buffer[] = []
  req.on('data', (chunk: Buffer) => body.push(chunk))
  req.on('end', () => {
    const out = http.request(
      upstream,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-goog-api-key': 'bench' } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { 'content-type': 'text/event-stream' })
        up.on('data', (chunk: Buffer) => res.write(chunk))
        up.on('end', () => res.end())
      },
    )
    out.on('error', () => res.destroy())
    out.end(Buffer.concat(body))
  })
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' ? address?.port : 0 })}\n`)
})
process.once('SIGTERM', () => process.exit(0))
