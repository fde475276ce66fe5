import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { syntheticCatalog } from '../test-support/synthetic-catalog.js'
import { loadCatalog } from '../store/catalog-file.js'
import { isModelledTool } from './modelled-tools.js'
import { createMcpServer, toolListPage } from './server.js'

// Hosted MCP answers `tools/list` from kept text without building a server per request (issue 35's
// ≤ 5 ms p99). The listing must be exactly the one a server built with the same options answers.
const sandboxes: TestSandbox[] = []
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()))
})

async function hosted(sb: TestSandbox, accept: string, params?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: any }> {
  const answer = await fetch(`${sb.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'x-service-key': KEYS.agent, accept, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', ...(params ? { params } : {}) }),
  })
  const text = await answer.text()
  const data = text.split('\n').find((l) => l.startsWith('data: '))
  return { status: answer.status, type: answer.headers.get('content-type') ?? '', body: JSON.parse(data ? data.slice(6) : text) }
}

const CATALOG = { tools: syntheticCatalog() }

describe.each([
  ['the sandbox’s own tools', {}, false],
  ['a 200-tool catalog, paged by 50', { catalog: CATALOG, mcpPageSize: 50 }, true],
])('hosted tools/list over %s', (_name, options, withCatalog) => {
  let sb: TestSandbox
  let reference: Client
  beforeAll(async () => {
    sb = await startSandbox(options)
    sandboxes.push(sb)
    const server = createMcpServer({
      backend: { run: async () => ({ status: 200, body: {} }) },
      pageSize: 'mcpPageSize' in options ? options.mcpPageSize : undefined,
      catalog: withCatalog ? await loadCatalog(CATALOG, isModelledTool) : undefined,
    })
    const [a, b] = InMemoryTransport.createLinkedPair()
    reference = new Client({ name: 'reference', version: '1' })
    await Promise.all([server.connect(a), reference.connect(b)])
  })

  it('is, page by page and whatever the client accepts, the listing a server answers', async () => {
    let cursor: string | undefined
    let pages = 0
    do {
      // Raw, as sent: the SDK's typed listTools() would drop the annotations MCP does not name (effect…).
      const expected = (await reference.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, z.looseObject({}))) as { nextCursor?: string }
      for (const accept of ['application/json', 'application/json, text/event-stream']) {
        const answer = await hosted(sb, accept, cursor === undefined ? undefined : { cursor })
        expect(answer.status).toBe(200)
        expect(answer.type).toMatch(accept.includes('event-stream') ? /^text\/event-stream/ : /^application\/json/)
        expect(answer.body).toEqual({ jsonrpc: '2.0', id: 7, result: JSON.parse(JSON.stringify(expected)) })
      }
      cursor = expected.nextCursor
      pages++
    } while (cursor !== undefined)
    expect(pages).toBe(withCatalog ? 5 : 1)
  })

  it('leaves a bad cursor and an unknown protocol version to the server, which refuses them', async () => {
    const bad = await hosted(sb, 'application/json', { cursor: 'not-a-cursor' })
    expect(bad.body.error.code).toBe(-32602)
    const version = await hosted(sb, 'application/json', undefined, { 'mcp-protocol-version': '1999-01-01' })
    expect(version.status).toBe(400)
  })
})

describe('kept tools/list pages', () => {
  const cursor = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString('base64url')
  const names = (page: { text: string } | null) => (JSON.parse(page?.text ?? '{}') as { tools: Array<{ name: string }> }).tools.map((t) => t.name)

  it('keeps the pages its own cursors name, and answers a made-up offset without keeping it', () => {
    const options = { pageSize: 3 }
    const all = names(toolListPage({}, undefined))
    expect(all.length).toBeGreaterThan(6)
    expect(toolListPage(options, undefined)).toBe(toolListPage(options, undefined))
    expect(toolListPage(options, cursor(3))).toBe(toolListPage(options, cursor(3)))
    // Between boundaries and far past the end: right answers, a new page each time (nothing kept).
    expect(names(toolListPage(options, cursor(4)))).toEqual(all.slice(4, 7))
    expect(toolListPage(options, cursor(4))).not.toBe(toolListPage(options, cursor(4)))
    expect(names(toolListPage(options, cursor(3 * 1_000_000)))).toEqual([])
    expect(toolListPage(options, cursor(3 * 1_000_000))).not.toBe(toolListPage(options, cursor(3 * 1_000_000)))
  })
})
