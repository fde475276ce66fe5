// Issue 35: sequential hosted MCP `tools/list`, timed one by one, from a plain node process with a
// node:http client that counts the answer's bytes without decoding them. The bench's own process
// runs under tsx with fetch: the same server measured from there showed a p99 2–3× this client's,
// which was the client's tail, not the server's (docs/benchmarks.md, "Tool catalogs").
// Usage: node bench/lib/list-client.mjs <mcp url> <key> <count> [session]
// "session" opens an MCP session first and sends its id with every listing. Prints one JSON line:
// { times: ms per listing in order, bytes of the last answer }.
import http from 'node:http'

const [url, key, countText, mode] = process.argv.slice(2)
const count = Number(countText)
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-service-key': key }

function post(message, extra = {}) {
  const body = JSON.stringify(message)
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...base, ...extra, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, chunks }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

let extra = {}
if (mode === 'session') {
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } })
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${Buffer.concat(init.chunks).toString().slice(0, 300)}`)
  const session = init.headers['mcp-session-id']
  extra = session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, extra)
}
const times = []
let bytes = 0
for (let i = 0; i < count; i++) {
  const started = performance.now()
  const answer = await post({ jsonrpc: '2.0', id: i + 1, method: 'tools/list', params: {} }, extra)
  times.push(performance.now() - started)
  bytes = answer.chunks.reduce((n, c) => n + c.length, 0)
  // Checked after timing, on bytes: a listing names list_campaigns (the floor's copy of it too).
  if (answer.status !== 200 || !Buffer.concat(answer.chunks).includes('list_campaigns')) {
    throw new Error(`tools/list answered ${answer.status}: ${Buffer.concat(answer.chunks).toString().slice(0, 300)}`)
  }
}
agent.destroy()
process.stdout.write(`${JSON.stringify({ times, bytes })}\n`)
