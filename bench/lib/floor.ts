import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstLine, startChild } from './processes.js'
import type { RunningServer } from './servers.js'

// A bare node:http server that answers every request with one fixed JSON body: no routing, auth,
// journal or state. It shows what this machine and load generator allow at all (the floor).
const SERVER = `
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
const body = process.env.FLOOR_BODY_FILE ? readFileSync(process.env.FLOOR_BODY_FILE) : Buffer.from(process.env.FLOOR_BODY ?? '{}')
const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body))
})
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'))
`

/** Starts the floor server answering `body` on an ephemeral loopback port. */
export async function startFloor(body: string): Promise<RunningServer> {
  const started = performance.now()
  // An environment variable holds at most 128 KB on Linux (E2BIG): a longer body goes through a file.
  const dir = body.length > 64 * 1024 ? await mkdtemp(join(tmpdir(), 'adops-floor-')) : null
  if (dir) await writeFile(join(dir, 'body'), body)
  const env = dir ? { FLOOR_BODY_FILE: join(dir, 'body') } : { FLOOR_BODY: body }
  const child = startChild(process.execPath, ['--input-type=module', '-e', SERVER], { env: { ...process.env, ...env } })
  const cleanUp = async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  }
  try {
    const { port } = JSON.parse(await firstLine(child)) as { port: number }
    const url = `http://127.0.0.1:${port}`
    return { child, pid: child.pid, baseUrl: url, apiUrl: url, adminToken: null, startMs: performance.now() - started, stop: () => child.stop().finally(cleanUp) }
  } catch (error) {
    await child.stop(500)
    await cleanUp()
    throw error
  }
}
