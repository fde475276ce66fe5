import { mkdtemp, rm } from 'node:fs/promises'
import type { RequestListener } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { KEYS, call } from '../test-support/http.js'
import { readDocumentOnDisk } from '../store/doc-log.js'

/**
 * The consent page's "connected" answer is an acknowledgement like any write's: it is sent only
 * once the group commit holding the connection is on disk (issue 36: answering before the commit
 * survived the suite). The base host's listener is wrapped so each 201 looks at the files as it
 * is handed to the socket.
 */
let dir: string
let file: string
let sandbox: Sandbox
let base: Listening
/** Connections on disk (the state document with the log's newer doc lines) at each 201's send. */
const atSend: number[] = []

const onDisk = () => (readDocumentOnDisk(file, ['connections']) as unknown as { connections: Array<{ source: string }> }).connections.filter((c) => c.source === 'connect_link').length

function observed(listener: RequestListener): RequestListener {
  return (req, res) => {
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res
    res.end = ((...args: unknown[]) => {
      if (res.statusCode === 201 && req.url?.startsWith('/connect/')) atSend.push(onDisk())
      return end(...args)
    }) as typeof res.end
    listener(req, res)
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-connect-'))
  file = join(dir, 'state.json')
  sandbox = await buildSandbox({ state: file })
  base = await listen(observed(sandbox.baseListener), '127.0.0.1', 0)
  sandbox.ctx.urls = { base: base.url, api: base.url }
})
afterAll(async () => {
  await base?.close()
  await sandbox?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('the consent page answers "connected" only once the connection is on disk', () => {
  it.each([
    ['an API client (JSON)', { accept: 'application/json', 'content-type': 'application/json' }, '{}'],
    ['a browser (the HTML form)', { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, 'decision=allow'],
  ])('%s', async (_name, headers, body) => {
    const link = await call(base.url, 'POST', '/api/v1/connections/start', { key: KEYS.agent, body: { platform: 'google' } })
    expect(link.status).toBe(201)
    const before = onDisk()
    atSend.length = 0
    const res = await fetch(new URL(new URL(link.body.url).pathname, base.url), { method: 'POST', headers, body })
    expect(res.status).toBe(201)
    expect(atSend).toEqual([before + 1])
  })
})
